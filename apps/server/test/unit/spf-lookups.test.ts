import { spfLookupTerms } from '@panel247/contract/mail-auth-rules';
import { describe, expect, it } from 'vitest';
import type { TxtLookup } from '../../src/drivers/dkim/txt-lookup.ts';
import { countSpfLookups, dmarcAnswerProblem, spfAnswerProblem } from '../../src/modules/mail/mail-auth-check.ts';

/** A resolver that knows these names (any other: no such name), and counts its queries. */
function fakeLookup(zone: Record<string, string[] | undefined>): TxtLookup & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    async txt(name: string) {
      queries.push(name);
      return name in zone ? zone[name] : [];
    },
  };
}

describe('SPF DNS-lookup counting (RFC 7208 4.6.4)', () => {
  it('counts include, a, mx, ptr, exists and redirect, not ip4, ip6 nor all', () => {
    expect(
      spfLookupTerms(
        'v=spf1 a a:mail.example.org/24 mx/24 ptr exists:%{i}.x.example ip4:192.0.2.1 ip6:2001:db8::1 -all',
      ),
    ).toEqual({ count: 5, follow: [] });
    expect(spfLookupTerms('v=spf1 +include:_spf.Google.com ?include:b.example redirect=c.example.')).toEqual({
      count: 3,
      follow: ['_spf.google.com', 'b.example', 'c.example'],
    });
    // A macro domain costs its lookup but cannot be followed.
    expect(spfLookupTerms('v=spf1 include:%{d}.spf.example -all')).toEqual({ count: 1, follow: [] });
  });

  it('follows includes recursively and adds their terms', async () => {
    const lookup = fakeLookup({
      'a.example': ['v=spf1 include:b.example mx -all', 'unrelated text'],
      'b.example': ['v=spf1 a mx ip4:192.0.2.0/24 -all'],
    });
    // 2 here (include, a) + 2 in a.example + 2 in b.example
    expect(await countSpfLookups('domain.test', 'v=spf1 include:a.example a -all', lookup)).toBe(6);
    expect(lookup.queries).toEqual(['a.example', 'b.example']);
  });

  it('counts a domain that does not answer by its own term only', async () => {
    const lookup = fakeLookup({ 'down.example': undefined });
    expect(await countSpfLookups('domain.test', 'v=spf1 include:down.example include:gone.example -all', lookup)).toBe(
      2,
    );
  });

  it('goes over the limit with a loop, and stops asking', async () => {
    const lookup = fakeLookup({
      'a.example': ['v=spf1 include:b.example -all'],
      'b.example': ['v=spf1 include:a.example -all'],
    });
    expect(await countSpfLookups('domain.test', 'v=spf1 include:a.example -all', lookup)).toBeGreaterThan(10);
    expect(lookup.queries).toEqual(['a.example', 'b.example']);
    // Including itself is a loop too.
    const self = fakeLookup({ 'domain.test': ['v=spf1 include:domain.test -all'] });
    expect(await countSpfLookups('domain.test', 'v=spf1 include:domain.test -all', self)).toBeGreaterThan(10);
    expect(self.queries).toEqual([]);
  });

  it('asks a bounded number of queries in a huge tree', async () => {
    const zone: Record<string, string[]> = {};
    for (let i = 0; i < 50; i++) zone[`n${i}.example`] = [`v=spf1 include:n${i + 1}.example ip4:192.0.2.${i}`];
    const lookup = fakeLookup(zone);
    expect(await countSpfLookups('domain.test', 'v=spf1 include:n0.example -all', lookup)).toBeGreaterThan(10);
    expect(lookup.queries.length).toBeLessThanOrEqual(12);
  });
});

describe('what receivers would find broken in an answer', () => {
  const none = fakeLookup({});
  it('flags two SPF records, a syntax error, and too many lookups', async () => {
    expect(await spfAnswerProblem('d.test', ['v=spf1 -all', 'V=SPF1 a -all'], none)).toEqual({
      problem: 'two_records',
    });
    expect(await spfAnswerProblem('d.test', ['v=spf1 bogus:x -all'], none)).toEqual({ problem: 'syntax' });
    const eleven = `v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:h${i}.example`).join(' ')} -all`;
    expect(await spfAnswerProblem('d.test', [eleven], none)).toEqual({ problem: 'lookups', lookups: 11 });
    const ten = `v=spf1 ${Array.from({ length: 10 }, (_, i) => `a:h${i}.example`).join(' ')} -all`;
    expect(await spfAnswerProblem('d.test', [ten, 'some other text'], none)).toBeUndefined();
    expect(await spfAnswerProblem('d.test', [], none)).toBeUndefined();
  });

  it('flags two DMARC records and one receivers cannot parse', () => {
    expect(dmarcAnswerProblem(['v=DMARC1; p=none', 'v=DMARC1; p=reject'])).toEqual({ problem: 'two_records' });
    expect(dmarcAnswerProblem(['v=DMARC1; p=sometimes'])).toEqual({ problem: 'syntax' });
    expect(dmarcAnswerProblem(['v=DMARC1; p=none'])).toBeUndefined();
  });
});
