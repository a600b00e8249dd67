// @vitest-environment node
import { describe, expect, it } from 'vitest';
import es from '../../../locales/es.json';
import { displayPriority, fullName, ttlLabelKey } from './dns-format';

const label = (key: string) => (es.dns as Record<string, unknown>)[key.replace(/^dns\./, '')];

describe('TTL labels', () => {
  it('names each choice and reads 0 or an unknown TTL as default', () => {
    expect([0, 600, 1800, 3600, 21600, 43200, 86400].map((ttl) => label(ttlLabelKey(ttl)))).toEqual([
      'Por defecto',
      '10 min',
      '30 min',
      '1 h',
      '6 h',
      '12 h',
      '1 día',
    ]);
    expect(ttlLabelKey(300)).toBe('dns.ttl_0');
    expect(ttlLabelKey(-1)).toBe('dns.ttl_0');
  });
});

describe('full name', () => {
  it('joins the owner and the zone in punycode; the apex is the zone itself', () => {
    expect(fullName({ zona: 'www', referencePunycode: 'demo.test' })).toBe('www.demo.test');
    expect(fullName({ zona: '_sip._tcp', referencePunycode: 'xn--espaa-rta.test' })).toBe(
      '_sip._tcp.xn--espaa-rta.test',
    );
    expect(fullName({ zona: '', referencePunycode: 'demo.test' })).toBe('demo.test');
  });
});

describe('priority column', () => {
  it('shows a number only for MX and SRV', () => {
    expect(displayPriority({ type: 'MX', priority: 10 })).toBe('10');
    expect(displayPriority({ type: 'SRV', priority: 0 })).toBe('0');
    expect(displayPriority({ type: 'A', priority: 20 })).toBe('');
    expect(displayPriority({ type: 'TXT', priority: 0 })).toBe('');
  });
});
