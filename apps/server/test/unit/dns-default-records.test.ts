import { DEFAULT_RECORD_TEMPLATES, renderDefaultRecords } from '@panel247/contract/dns-default-records';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const values = {
  domain: 'shop.example',
  webIpv4: '192.0.2.10',
  webIpv6: '',
  mailIpv4: '192.0.2.25',
  webHost: 'web1.provider.example.',
  mailHost: 'mx.provider.example',
  spfInclude: 'spf.provider.example',
  dmarcReport: 'dmarc@provider.example',
  nameservers: ['ns1.provider.example', 'ns2.provider.example'],
};

describe('the provider’s default records', () => {
  it('fill the service’s domain and the provider’s hosts; a template on an empty setting is left out', () => {
    const records = renderDefaultRecords(
      [
        { zona: '', type: 'NS', value: '{ns}', eliminable: false },
        { zona: '', type: 'AAAA', value: '{web_ipv6}' },
        { zona: 'www', type: 'CNAME', value: '{web_host}' },
        { zona: '', type: 'MX', priority: 5, ttl: 3600, value: '{mail_host}' },
        { zona: '_dmarc', type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:dmarc@{domain}' },
      ],
      values,
    );
    expect(
      records.map((r) => `${r.zona || '@'} ${r.type} ${r.priority} ${r.ttl} ${r.value} [${r.dynamicValue}]`),
    ).toEqual([
      '@ NS 0 0 ns1.provider.example [{ns}]',
      '@ NS 0 0 ns2.provider.example [{ns}]',
      'www CNAME 0 0 web1.provider.example [{web_host}]',
      '@ MX 5 3600 mx.provider.example [{mail_host}]',
      '_dmarc TXT 0 0 v=DMARC1; p=none; rua=mailto:dmarc@shop.example []',
    ]);
    expect(records.map((r) => r.eliminable)).toEqual([false, false, true, true, true]);
  });

  it('name the databases server by {databases_host} and {databases_ipv4}; none without one', () => {
    const templates = [
      { zona: 'db', type: 'CNAME', value: '{databases_host}' },
      { zona: 'db4', type: 'A', value: '{databases_ipv4}' },
    ];
    expect(renderDefaultRecords(templates, values)).toEqual([]);
    const placed = renderDefaultRecords(templates, {
      ...values,
      databasesHost: 'db1.provider.example.',
      databasesIpv4: '192.0.2.30',
    });
    expect(placed.map((r) => `${r.zona} ${r.type} ${r.value} [${r.dynamicValue}]`)).toEqual([
      'db CNAME db1.provider.example [{databases_host}]',
      'db4 A 192.0.2.30 [{databases_ipv4}]',
    ]);
  });

  it('include SPF with the provider’s include and DMARC p=none with its report address', () => {
    const records = renderDefaultRecords(DEFAULT_RECORD_TEMPLATES, values).filter((r) => r.type === 'TXT');
    expect(records.map((r) => `${r.zona || '@'} ${r.value}`)).toEqual([
      '@ v=spf1 mx a include:spf.provider.example ~all',
      '_dmarc v=DMARC1; p=none; rua=mailto:dmarc@provider.example',
    ]);
  });

  it('default to today’s set', () => {
    const config = loadConfig({ PANEL_DATA_DIR: '/nonexistent' });
    expect(config.dns.defaultRecords).toEqual(DEFAULT_RECORD_TEMPLATES);
  });

  it('come from the config file or PANEL_DNS_DEFAULT_RECORDS as a JSON list', () => {
    const list = [{ type: 'A', zona: 'web', value: '{web_ipv4}' }];
    const config = loadConfig({ PANEL_DATA_DIR: '/nonexistent', PANEL_DNS_DEFAULT_RECORDS: JSON.stringify(list) });
    expect(config.dns.defaultRecords).toEqual(list);
  });

  it.each([
    ['not JSON', 'nope', /dns\.defaultRecords \(PANEL_DNS_DEFAULT_RECORDS\): not JSON/],
    ['not a list', '{"type":"A"}', /dns\.defaultRecords \(PANEL_DNS_DEFAULT_RECORDS\): .*expected array/],
    ['an unknown field', '[{"type":"A","value":"{web_ipv4}","note":"x"}]', /dns\.defaultRecords\.0: .*note/],
    [
      'an unknown placeholder',
      '[{"type":"A","value":"{web_ip}"}]',
      /dns\.defaultRecords\.0: unknown placeholder \{web_ip\}/,
    ],
    [
      'a CNAME at the apex',
      '[{"type":"CNAME","value":"{web_host}"}]',
      /dns\.defaultRecords\.0: CNAME '' zona: A CNAME cannot/,
    ],
    [
      'a bad priority',
      '[{"type":"MX","value":"mail.{domain}","priority":7}]',
      /dns\.defaultRecords\.0: MX '' priority/,
    ],
    ['an A record on a host name', '[{"type":"A","value":"{mail_host}"}]', /dns\.defaultRecords\.0: A '' value/],
  ])('refuse %s at start', (_name, json, message) => {
    const load = () =>
      loadConfig({
        PANEL_DATA_DIR: '/nonexistent',
        PANEL_DNS_WEB_HOST: 'web.provider.example',
        PANEL_DNS_MAIL_HOST: 'mx.provider.example',
        PANEL_DNS_DEFAULT_RECORDS: json,
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });
});
