import { describe, expect, it } from 'vitest';
import type { DnsRecordRow } from '../../src/db/schema.ts';
import { changedRRsets, rowsWith, sameRecords } from '../../src/modules/dns/zone-history.ts';

let nextId = 1;
const row = (zona: string, type: string, value: string, extra: Partial<DnsRecordRow> = {}): DnsRecordRow => ({
  id: nextId++,
  service_id: 1,
  zona,
  type,
  ttl: 0,
  priority: 0,
  value,
  dynamic_value: '',
  eliminable: 1,
  created_at: 0,
  ...extra,
});
const kept = (value: string, extra: Partial<{ ttl: number; priority: number; dynamicValue: string }> = {}) => ({
  ttl: 0,
  priority: 0,
  value,
  dynamicValue: '',
  eliminable: true,
  ...extra,
});

describe('the zone history’s diff', () => {
  it('keeps only the RRsets whose records differ, order and ids aside', () => {
    const before = [row('www', 'A', '192.0.2.1'), row('www', 'A', '192.0.2.2'), row('', 'MX', 'mx', { priority: 10 })];
    const after = [row('www', 'A', '192.0.2.2'), row('www', 'A', '192.0.2.1'), row('', 'MX', 'mx', { priority: 20 })];
    expect(changedRRsets(before, after)).toEqual([
      { zona: '', type: 'MX', before: [kept('mx', { priority: 10 })], after: [kept('mx', { priority: 20 })] },
    ]);
  });

  it('sees an RRset appear or go, a TTL, a dynamic value and deletability change', () => {
    const before = [row('old', 'TXT', 'x'), row('', 'A', '192.0.2.10', { dynamic_value: '{web_ipv4}' })];
    const after = [row('new', 'TXT', 'x'), row('', 'A', '192.0.2.10')];
    expect(changedRRsets(before, after).map((set) => `${set.zona} ${set.type}`)).toEqual(['old TXT', ' A', 'new TXT']);
    expect(sameRecords([kept('a')], [{ ...kept('a'), eliminable: false }])).toBe(false);
    expect(sameRecords([kept('a', { ttl: 600 })], [kept('a')])).toBe(false);
    expect(sameRecords([kept('a'), kept('a')], [kept('a')])).toBe(false);
  });

  it('builds the zone at an earlier point: the changed RRsets replaced, the others as they are', () => {
    const now = [row('www', 'A', '192.0.2.9'), row('mail', 'A', '192.0.2.25'), row('gone', 'TXT', 'later')];
    const then = rowsWith(
      now,
      [
        { zona: 'www', type: 'A', records: [kept('192.0.2.1'), kept('192.0.2.2')] },
        { zona: 'gone', type: 'TXT', records: [] },
      ],
      1,
    );
    expect(then.map((r) => `${r.zona} ${r.type} ${r.value}`)).toEqual([
      'mail A 192.0.2.25',
      'www A 192.0.2.1',
      'www A 192.0.2.2',
    ]);
  });
});
