// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canAddRow, canRemoveRow, dnsRowsReducer, initialDnsState, rowOfField, validateDnsRows } from './dns-rows';

const withService = {
  domainDNSs: ['ns1.p.test', 'ns2.p.test'],
  hasService: true,
  defaultDNSs: ['ns1.p.test', 'ns2.p.test'],
};
const noService = {
  domainDNSs: ['a.example.com', 'b.example.com', 'c.example.com'],
  hasService: false,
  defaultDNSs: [],
};

describe('DNS edit rows', () => {
  it('preselects the provider in default mode with a service; custom rows hold the current servers otherwise', () => {
    expect(initialDnsState(withService, 'defaultDNS')).toEqual({ choice: 'default', rows: ['', ''] });
    expect(initialDnsState(noService, 'setDNS')).toEqual({ choice: 'custom', rows: noService.domainDNSs });
    expect(initialDnsState({ ...noService, domainDNSs: [] }, 'setDNS').rows).toEqual(['', '']);
    // no service: the provider's servers are never offered, even in default mode
    expect(initialDnsState({ ...noService, domainDNSs: [] }, 'defaultDNS').choice).toBe('custom');
  });

  it('adds up to 7 rows (then no add), never removes the first 2', () => {
    let state = initialDnsState({ ...noService, domainDNSs: [] }, 'setDNS');
    expect(state.rows).toHaveLength(2);
    expect(canRemoveRow(state.rows, 0)).toBe(false);
    expect(canRemoveRow(state.rows, 1)).toBe(false);
    for (let i = 0; i < 10; i++) state = dnsRowsReducer(state, { type: 'add' });
    expect(state.rows).toHaveLength(7);
    expect(canAddRow(state.rows)).toBe(false);
    expect(canRemoveRow(state.rows, 1)).toBe(false);
    expect(canRemoveRow(state.rows, 2)).toBe(true);
    expect(dnsRowsReducer(state, { type: 'remove', index: 0 }).rows).toHaveLength(7);
    state = dnsRowsReducer(state, { type: 'set', index: 6, value: 'last.example.com' });
    state = dnsRowsReducer(state, { type: 'remove', index: 2 });
    expect(state.rows).toHaveLength(6);
    expect(state.rows[5]).toBe('last.example.com');
    expect(canAddRow(state.rows)).toBe(true);
  });

  it('switching the choice resets the custom rows', () => {
    let state = initialDnsState(noService, 'setDNS');
    state = dnsRowsReducer(state, { type: 'choose', choice: 'default' });
    state = dnsRowsReducer(state, { type: 'choose', choice: 'custom' });
    expect(state).toEqual({ choice: 'custom', rows: ['', ''] });
    // choosing the same again changes nothing
    const same = dnsRowsReducer({ choice: 'custom', rows: ['a.b.c', 'd.e.f'] }, { type: 'choose', choice: 'custom' });
    expect(same.rows).toEqual(['a.b.c', 'd.e.f']);
  });

  it('checks each row and maps server errors dns[N] to rows', () => {
    expect(validateDnsRows(['ns1.demo.test', 'ns2.demo.test'])).toEqual({});
    expect(validateDnsRows(['', 'bad_name', 'ns1.demo.test', 'NS1.demo.test'])).toEqual({
      0: 'validation.required',
      1: 'domain.error.hostname',
      3: 'domain.error.duplicate_server',
    });
    expect(rowOfField('dns[3]')).toBe(3);
    expect(rowOfField('dns')).toBeNull();
  });
});
