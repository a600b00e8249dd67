// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { dnsFormValuesFromRecord, dnsPayload, initialDnsFormValues, validateDnsForm } from './dns-form';

const ZONE = 'demo.test';

describe('create payload', () => {
  it('starts as type A, TTL 0, priority 20', () => {
    const values = initialDnsFormValues();
    expect([values.type, values.ttl, values.priority]).toEqual(['A', '0', '20']);
  });

  it('composes the SRV owner (service, protocol, name) and value (priority port target)', () => {
    const values = {
      ...initialDnsFormValues(),
      type: 'SRV',
      srvService: '_sip',
      srvProtocol: '_udp',
      zona: 'voice',
      priority: '10',
      port: '5060',
      value: 'sip.demo.test',
      ttl: '3600',
    };
    expect(dnsPayload(values)).toEqual({
      type: 'SRV',
      zona: '_sip._udp.voice',
      value: '10 5060 sip.demo.test',
      ttl: 3600,
      priority: 10,
    });
    expect(dnsPayload({ ...values, zona: '' }).zona).toBe('_sip._udp');
  });

  it('composes the CAA value with the target in quotes', () => {
    const values = {
      ...initialDnsFormValues(),
      type: 'CAA',
      caaFlag: '128',
      caaTag: 'iodef',
      value: 'mailto:ca@demo.test',
    };
    expect(dnsPayload(values).value).toBe('128 iodef "mailto:ca@demo.test"');
  });
});

describe('edit: stored values split back into parts', () => {
  it('round-trips an SRV value whose weight equals its priority', () => {
    const record = { type: 'SRV', zona: '_sip._tcp', value: '20 5060 sip.demo.test', ttl: 0, priority: 20 };
    const values = dnsFormValuesFromRecord(record);
    expect([values.priority, values.port, values.value, values.srvWeight]).toEqual(['20', '5060', 'sip.demo.test', '']);
    expect(dnsPayload(values)).toMatchObject({ zona: '_sip._tcp', value: record.value, priority: 20 });
    // changing the priority changes the first number too, as in create
    expect(dnsPayload({ ...values, priority: '30' }).value).toBe('30 5060 sip.demo.test');
  });

  it('keeps a weight that differs from the priority, and strips a trailing dot', () => {
    const record = { type: 'SRV', zona: '_sip._tcp', value: '5 5060 sip.demo.test.', ttl: 0, priority: 20 };
    const values = dnsFormValuesFromRecord(record);
    expect([values.srvWeight, values.value]).toEqual(['5', 'sip.demo.test']);
    expect(dnsPayload({ ...values, port: '5061', priority: '30' })).toMatchObject({
      value: '5 5061 sip.demo.test',
      priority: 30,
    });
  });

  it('round-trips a CAA value without its quotes', () => {
    const record = { type: 'CAA', zona: '', value: '0 issue "letsencrypt.org"', ttl: 86400, priority: 0 };
    const values = dnsFormValuesFromRecord(record);
    expect([values.caaFlag, values.caaTag, values.value, values.ttl]).toEqual([
      '0',
      'issue',
      'letsencrypt.org',
      '86400',
    ]);
    expect(dnsPayload(values).value).toBe(record.value);
  });

  it('keeps the record priority of MX and the default for the other types', () => {
    expect(
      dnsFormValuesFromRecord({ type: 'MX', zona: '', value: 'mx.demo.test', ttl: 0, priority: 10 }).priority,
    ).toBe('10');
    expect(dnsFormValuesFromRecord({ type: 'A', zona: 'www', value: '192.0.2.1', ttl: 0, priority: 0 }).priority).toBe(
      '20',
    );
  });
});

describe('client validation: each error under its own field', () => {
  const base = initialDnsFormValues();

  it('A: IPv4 under the value, a bad owner under the name', () => {
    expect(validateDnsForm({ ...base, value: '300.1.1.1' }, ZONE, 'create')).toEqual({ value: 'dns.error.ipv4' });
    expect(validateDnsForm({ ...base, zona: 'bad name', value: '192.0.2.1' }, ZONE, 'create')).toEqual({
      zona: 'dns.error.name',
    });
    expect(validateDnsForm({ ...base, value: '' }, ZONE, 'create')).toEqual({ value: 'validation.required' });
    expect(validateDnsForm({ ...base, value: '192.0.2.1' }, ZONE, 'create')).toEqual({});
  });

  it('service labels: fine for TXT, refused under the name for an A record', () => {
    expect(
      validateDnsForm({ ...base, type: 'TXT', zona: '_dmarc', value: 'v=DMARC1; p=none' }, ZONE, 'create'),
    ).toEqual({});
    expect(validateDnsForm({ ...base, zona: 'www._tcp', value: '192.0.2.1' }, ZONE, 'create')).toEqual({
      zona: 'dns.error.service_label',
    });
  });

  it('CNAME at the apex goes under the name', () => {
    expect(validateDnsForm({ ...base, type: 'CNAME', value: 'demo.test' }, ZONE, 'create')).toEqual({
      zona: 'dns.error.cname_apex',
    });
  });

  it('SRV: port and target on their own fields, the service label under the service', () => {
    const srv = { ...base, type: 'SRV', srvChoice: '', srvService: '', srvProtocol: '_tcp' };
    expect(validateDnsForm(srv, ZONE, 'create')).toEqual({
      srvService: 'validation.required',
      port: 'validation.required',
      value: 'validation.required',
    });
    expect(validateDnsForm({ ...srv, srvService: '_sip', port: '70000', value: 'not a host' }, ZONE, 'create')).toEqual(
      {
        port: 'dns.error.srv_number',
        value: 'dns.error.host',
      },
    );
    expect(
      validateDnsForm({ ...srv, srvService: 'sip', port: '5060', value: 'sip.demo.test' }, ZONE, 'create'),
    ).toEqual({ srvService: 'dns.error.srv_name' });
    expect(
      validateDnsForm({ ...srv, srvService: '_sip', port: '5060', value: 'sip.demo.test' }, ZONE, 'create'),
    ).toEqual({});
  });

  it('CAA: flag and tag under their fields, the target under the value', () => {
    const caa = { ...base, type: 'CAA', caaFlag: '0', caaTag: 'issue' };
    expect(validateDnsForm({ ...caa, caaFlag: '256', value: 'letsencrypt.org' }, ZONE, 'create')).toEqual({
      caaFlag: 'dns.error.caa_flag',
    });
    expect(validateDnsForm({ ...caa, caaFlag: '', value: 'letsencrypt.org' }, ZONE, 'create')).toEqual({
      caaFlag: 'validation.required',
    });
    expect(validateDnsForm({ ...caa, caaTag: 'iodef', value: 'not-a-url' }, ZONE, 'create')).toEqual({
      value: 'dns.error.caa_value',
    });
  });

  it('edit: the value is required; the fixed name is not judged', () => {
    const values = dnsFormValuesFromRecord({
      type: 'TXT',
      zona: '_dmarc',
      value: 'v=DMARC1; p=none',
      ttl: 0,
      priority: 0,
    });
    expect(validateDnsForm({ ...values, value: '  ' }, ZONE, 'edit')).toEqual({ value: 'validation.required' });
    expect(validateDnsForm(values, ZONE, 'edit')).toEqual({});
  });
});
