// @vitest-environment node
import type { SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';
import { describe, expect, it } from 'vitest';
import { certificateColor, orderRunning, sslModeOf, stepIndex } from './certificate-state';

const auto = (state: SiteCertificate['state'], expiresAt = 0): SiteCertificate => ({
  challenge: 'http-01',
  wildcard: false,
  state,
  error: '',
  expiresAt,
});
const site = (enabled: boolean) => ({ ssl: { enabled } }) as unknown as Subdomain;

describe('automatic certificate state', () => {
  it('keeps asking only while the order is on its way', () => {
    expect(['queued', 'ordered', 'validating', 'issued'].every((s) => orderRunning(s as never))).toBe(true);
    expect(orderRunning('installed')).toBe(false);
    expect(orderRunning('failed')).toBe(false);
    expect(orderRunning(undefined)).toBe(false);
  });

  it('places each state on the steps', () => {
    expect(stepIndex('queued')).toBe(-1);
    expect(stepIndex('ordered')).toBe(0);
    expect(stepIndex('installed')).toBe(3);
    expect(stepIndex('failed')).toBe(-1);
  });

  it('colours the dot: red when failed or past its end, green when installed, blue on the way', () => {
    expect(certificateColor(auto('failed'), 100)).toBe('red');
    expect(certificateColor(auto('installed', 50), 100)).toBe('red');
    expect(certificateColor(auto('installed', 500), 100)).toBe('green');
    expect(certificateColor(auto('validating'), 100)).toBe('blue');
  });

  it('tells the SSL choice of a site', () => {
    expect(sslModeOf(site(true), auto('installed'))).toBe('auto');
    expect(sslModeOf(site(false), auto('queued'))).toBe('auto');
    expect(sslModeOf(site(true), null)).toBe('manual');
    expect(sslModeOf(site(false), null)).toBe('off');
    expect(sslModeOf(null, undefined)).toBe('off');
  });
});
