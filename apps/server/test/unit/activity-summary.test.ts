import type { ActivityEntry } from '@panel247/contract/activity';
import { describe, expect, it } from 'vitest';
import { toActivityCsv } from '../../src/modules/activity/activity-csv.ts';
import {
  actionOfRoute,
  changedFields,
  changesFromParams,
  idFieldsOfRoute,
} from '../../src/modules/activity/activity-summary.ts';

describe('what the activity log keeps of a call', () => {
  it('names a call by its path without the resource and the ids', () => {
    expect(actionOfRoute('service/:id/dns/:dnsZoneId/save/')).toBe('dns/save');
    expect(actionOfRoute('domain/:id/toggle/block/')).toBe('toggle/block');
    expect(actionOfRoute('service/:id/correo/create/')).toBe('correo/create');
    expect(actionOfRoute('service/:id/php/')).toBe('php');
    expect(idFieldsOfRoute('service/:id/ftp/:fid/save/')).toEqual(['id', 'fid']);
  });

  it('keeps the fields a call sent, but never a password, a key, a code, a token or a big text', () => {
    const params = {
      id: 4,
      fid: 9,
      language: 'en',
      name: 'sales',
      password: 'hunter2 hunter2',
      actualPassword: 'old one',
      code: '123456',
      recaptcha_response: 'x',
      token: 'p247_abc',
      text: '$ORIGIN example.com.\n',
      content: 'file contents',
      certificate: '-----BEGIN',
      privateKey: '-----BEGIN',
      dns: ['ns1.example.com', 'ns2.example.com'],
      quota: 1024,
      active: true,
      nested: { a: 1 },
      empty: '',
    };
    expect(changesFromParams(params, ['id', 'fid'])).toEqual([
      { field: 'name', before: null, after: 'sales' },
      { field: 'dns', before: null, after: 'ns1.example.com, ns2.example.com' },
      { field: 'quota', before: null, after: '1024' },
      { field: 'active', before: null, after: 'true' },
    ]);
    expect(changesFromParams({ note: 'x'.repeat(500) }, [])[0]?.after).toHaveLength(120);
  });

  it('shows an edit as only what differs', () => {
    expect(changedFields({ value: 'a', ttl: 300 }, { value: 'b', ttl: 300 })).toEqual([
      { field: 'value', before: 'a', after: 'b' },
    ]);
    expect(changedFields(undefined, { value: 'b' })).toEqual([{ field: 'value', before: null, after: 'b' }]);
    expect(changedFields({ password: 'a' }, { password: 'b' })).toEqual([]);
  });

  it('writes CSV a spreadsheet cannot run: a cell that starts like a formula is escaped', () => {
    const entry: ActivityEntry = {
      id: 1,
      at: 1_795_000_000,
      user: '=HYPERLINK("http://x")',
      ip: '127.0.0.1',
      via: 'web',
      resource: { id: 2, reference: 'example.com' },
      area: 'dns',
      action: 'dns/create',
      target: 'www, "quoted" A',
      changes: [{ field: 'value', before: null, after: '+1' }],
    };
    const csv = toActivityCsv([entry], (area) => area.toUpperCase());
    const [header, row] = csv.trim().split('\r\n');
    expect(header).toBe('time,user,ip,via,resource,area,action,target,changes');
    expect(row).toContain(`'=HYPERLINK`);
    expect(row).toContain('"www, ""quoted"" A"');
    expect(row).toContain('DNS');
    expect(row).toContain('value: — → +1');
    expect(row?.startsWith(new Date(1_795_000_000_000).toISOString())).toBe(true);
  });
});
