// @vitest-environment node
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { ipv4Error, ipv6Error, maskIpInput } from './ip';

describe('IP input (full mode)', () => {
  it('strips letters, caps a group at 3 digits and adds a dot after 3 digits while fewer than 3 dots exist', () => {
    expect(maskIpInput('19a2168')).toBe('192.168');
    expect(maskIpInput('192168001001')).toBe('192.168.001.001');
    expect(maskIpInput('1.2.3.4567')).toBe('1.2.3.456');
    expect(maskIpInput('10..0')).toBe('10.0');
    expect(maskIpInput('.5')).toBe('5');
  });

  it("says 'IP Invalida' unless four groups of 1-3 digits each at most 255", () => {
    expect(ipv4Error('192.0.2.10', true)).toBeNull();
    expect(ipv4Error('255.255.255.255', true)).toBeNull();
    for (const bad of ['192.168', '256.1.1.1', '1.2.3', '1.2.3.4.5'])
      expect(ipv4Error(bad, true), bad).toBe('domain.error.ip');
    expect(ipv4Error('', true)).toBe('validation.required');
    expect(ipv4Error('', false)).toBeNull();
    expect(es.domain.error.ip).toBe('IP Invalida');
    expect(en.domain.error.ip).toBe('IP Invalida');
  });

  it('IPv6 is optional and loosely checked', () => {
    expect(ipv6Error('')).toBeNull();
    expect(ipv6Error('2001:db8::53')).toBeNull();
    expect(ipv6Error('2001:db8:0:0:0:0:0:1')).toBeNull();
    expect(ipv6Error('2001:db8')).toBe('domain.error.ipv6');
    expect(ipv6Error('1::2::3')).toBe('domain.error.ipv6');
    expect(ipv6Error('192.0.2.1')).toBe('domain.error.ipv6');
  });
});
