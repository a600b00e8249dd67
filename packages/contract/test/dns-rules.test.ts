import { describe, expect, it } from 'vitest';
import {
  canonicalIPv6,
  composeCaaValue,
  composeSrvName,
  composeSrvValue,
  isHostName,
  isIPv4,
  isOwnerName,
  quoteTxt,
  splitCaaValue,
  splitSrvValue,
  splitTxt,
  toAsciiName,
  validateDnsRecord,
  valueLabelKey,
} from '../src/dns-rules.ts';

describe('DNS rules', () => {
  it('turns names into ASCII only when every label is valid IDNA2008', () => {
    expect(toAsciiName('Ñandú.test')).toBe('xn--and-6ma2c.test');
    expect(toAsciiName('café')).toBe('xn--caf-dma');
    expect(toAsciiName('xn--caf-dma')).toBe('xn--caf-dma');
    expect(toAsciiName('日本語')).toBe('xn--wgv71a119e');
    // the middle dot only between two l (RFC 5892 A.3): Catalan's l·l
    expect(toAsciiName('col·legi')).toBe('xn--collegi-xma');
    // symbols and emoji pass UTS-46 but not IDNA2008, typed or as an A-label
    for (const bad of ['ä😀', '😀.demo.test', 'xn--e28h.demo.test', '♥', 'a·b', 'xn--zz', 'xn--']) {
      expect(toAsciiName(bad), bad).toBeUndefined();
    }
  });

  it('accepts only strict dotted IPv4', () => {
    for (const good of ['0.0.0.0', '192.0.2.1', '255.255.255.255', '10.0.0.10']) expect(isIPv4(good)).toBe(true);
    for (const bad of [
      '127.1',
      '010.0.0.1',
      '256.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      ' 1.2.3.4',
      '1.2.3.4\n',
      '0x7f.0.0.1',
    ]) {
      expect(isIPv4(bad)).toBe(false);
    }
  });

  it('canonicalises IPv6 (RFC 5952) and refuses zone ids and malformed text', () => {
    expect(canonicalIPv6('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonicalIPv6('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIPv6('::')).toBe('::');
    expect(canonicalIPv6('::1')).toBe('::1');
    expect(canonicalIPv6('fe80::0001')).toBe('fe80::1');
    // IPv4-mapped addresses keep (or get) their dotted tail, RFC 5952 section 5.
    for (const mapped of ['::ffff:192.0.2.1', '::FFFF:192.0.2.1', '::ffff:c000:201', '0:0:0:0:0:ffff:c000:0201']) {
      expect(canonicalIPv6(mapped), mapped).toBe('::ffff:192.0.2.1');
    }
    expect(canonicalIPv6('::ffff:0.0.0.0')).toBe('::ffff:0.0.0.0');
    // Only the mapped prefix: other embeddings stay hexadecimal.
    expect(canonicalIPv6('::192.0.2.1')).toBe('::c000:201');
    expect(canonicalIPv6('64:ff9b::192.0.2.1')).toBe('64:ff9b::c000:201');
    expect(canonicalIPv6('::fffe:c000:201')).toBe('::fffe:c000:201');
    expect(canonicalIPv6('1::ffff:c000:201')).toBe('1::ffff:c000:201');
    expect(canonicalIPv6('1:2:3:4:5:6:7:8')).toBe('1:2:3:4:5:6:7:8');
    for (const bad of ['fe80::1%eth0', '1::2::3', '1:2:3:4:5:6:7:8:9', '12345::1', 'g::1', '1:2:3:4:5:6:7', ':::']) {
      expect(canonicalIPv6(bad)).toBeUndefined();
    }
  });

  it('knows owner names and host names', () => {
    for (const good of ['', 'www', '*.app', '_sip._tcp', '_dmarc', 'a-b.c1']) expect(isOwnerName(good)).toBe(true);
    for (const bad of ['-a', 'a-', 'a_b', 'a..b', 'www.*', 'x'.repeat(64), 'a b', '_a_b', 'a_', '_', '__x', 'x._']) {
      expect(isOwnerName(bad), bad).toBe(false);
    }
    for (const good of ['mail.example.com', 'mail.example.com.', 'xn--and-6ma2c.example'])
      expect(isHostName(good)).toBe(true);
    for (const bad of ['localhost', '192.0.2.1', '_sip.example.com', 'a..b', `${'a'.repeat(250)}.com`]) {
      expect(isHostName(bad)).toBe(false);
    }
  });

  it('splits TXT into 255-octet strings without cutting a character, and quotes them', () => {
    expect(splitTxt('a'.repeat(600)).map((p) => p.length)).toEqual([255, 255, 90]);
    const parts = splitTxt('ñ'.repeat(200));
    expect(parts.map((p) => new TextEncoder().encode(p).length)).toEqual([254, 146]);
    expect(quoteTxt('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
  });

  it('composes and splits SRV and CAA values like the web form', () => {
    expect(composeSrvName('_sip', '_tcp', '')).toBe('_sip._tcp');
    expect(composeSrvName('_sip', '_tcp', 'voice')).toBe('_sip._tcp.voice');
    expect(composeSrvValue(20, 5060, 'sip.example.com')).toBe('20 5060 sip.example.com');
    expect(splitSrvValue('20 5060 sip.example.com.')).toEqual({
      weight: '20',
      port: '5060',
      target: 'sip.example.com',
    });
    expect(composeCaaValue(0, 'issue', 'letsencrypt.org')).toBe('0 issue "letsencrypt.org"');
    expect(splitCaaValue('128 iodef "mailto:ca@example.com"')).toEqual({
      flag: '128',
      tag: 'iodef',
      target: 'mailto:ca@example.com',
    });
  });

  it('labels the value field by type', () => {
    expect(valueLabelKey('AAAA')).toBe('dns.value_ipv6');
    expect(valueLabelKey('MX')).toBe('dns.value_mail_server');
    expect(valueLabelKey('A')).toBe('dns.value_ip');
  });

  it('normalises a record, or lists its field errors', () => {
    const zone = 'example.com';
    expect(
      validateDnsRecord({ type: 'MX', zona: '@', value: 'MX.Example.org.', ttl: 600, priority: 10 }, zone),
    ).toEqual({
      record: { type: 'MX', zona: '', value: 'mx.example.org', ttl: 600, priority: 10 },
      errors: [],
    });
    expect(
      validateDnsRecord({ type: 'A', zona: 'Ñandú', value: '192.0.2.1', ttl: 0, priority: 50 }, zone).record,
    ).toEqual({
      type: 'A',
      zona: 'xn--and-6ma2c',
      value: '192.0.2.1',
      ttl: 0,
      priority: 0,
    });
    expect(validateDnsRecord({ type: 'TXT', zona: 'x', value: '', ttl: 5, priority: 0 }, zone).errors).toEqual([
      { field: 'ttl', messageKey: 'dns.error.ttl' },
      { field: 'value', messageKey: 'validation.required' },
    ]);
    expect(
      validateDnsRecord({ type: 'CNAME', zona: '', value: 'a.example.org', ttl: 0, priority: 0 }, zone).errors,
    ).toEqual([{ field: 'zona', messageKey: 'dns.error.cname_apex' }]);
    expect(
      validateDnsRecord({ type: 'CAA', zona: '', value: '0 iodef "ftp://x"', ttl: 0, priority: 0 }, zone).errors,
    ).toEqual([{ field: 'value', messageKey: 'dns.error.caa_value' }]);
    expect(
      validateDnsRecord({ type: 'SRV', zona: '_sip._tcp', value: '0 5060 .', ttl: 0, priority: 0 }, zone).record?.value,
    ).toBe('0 5060 .');
    expect(
      validateDnsRecord({ type: 'AAAA', zona: 'v4', value: '::FFFF:C000:0201', ttl: 0, priority: 0 }, zone).record
        ?.value,
    ).toBe('::ffff:192.0.2.1');
  });

  it('allows service labels only where a type has a use for them', () => {
    const zone = 'example.com';
    const check = (type: string, zona: string) => {
      const values: Record<string, string> = {
        TXT: 'v=1',
        CNAME: 'target.example.org',
        SRV: '10 5060 sip.example.org',
        A: '192.0.2.1',
        AAAA: '2001:db8::1',
        CAA: '0 issue "ca.example"',
      };
      const value = values[type];
      const errors = validateDnsRecord(
        { type, zona, value: value ?? 'mx.example.org', ttl: 0, priority: 10 },
        zone,
      ).errors;
      return errors.map((e) => `${e.field}:${e.messageKey}`);
    };
    const good: [string, string][] = [
      ['TXT', '_dmarc'],
      ['TXT', 'selector1._domainkey'],
      ['TXT', '_acme-challenge.www'],
      ['TXT', '_mta-sts'],
      ['CNAME', '_acme-challenge'],
      ['CNAME', 's1._domainkey'],
      ['SRV', '_sip._tcp'],
      ['SRV', '_sip._udp.voice'],
      ['A', 'www'],
      ['MX', ''],
    ];
    for (const [type, zona] of good) expect(check(type, zona), `${type} ${zona}`).toEqual([]);
    const refused: [string, string, string][] = [
      ['A', '_dmarc', 'zona:dns.error.service_label'],
      ['A', 'www._tcp', 'zona:dns.error.service_label'],
      ['AAAA', '_x', 'zona:dns.error.service_label'],
      ['MX', '_mail', 'zona:dns.error.service_label'],
      ['NS', '_domainkey', 'zona:dns.error.service_label'],
      ['CAA', '_x', 'zona:dns.error.service_label'],
      ['ANAME', '_x', 'zona:dns.error.service_label'],
      ['SRV', '_sip._tcp._x', 'zona:dns.error.srv_name'],
      ['SRV', 'sip._tcp', 'zona:dns.error.srv_name'],
      ['TXT', 'bad_label', 'zona:dns.error.name'],
      ['TXT', '_dm_arc', 'zona:dns.error.name'],
      ['CNAME', 'www_2', 'zona:dns.error.name'],
    ];
    for (const [type, zona, error] of refused) expect(check(type, zona), `${type} ${zona}`).toEqual([error]);
  });
});
