import { describe, expect, it } from 'vitest';
import type { DnsRecordRow } from '../../src/db/schema.ts';
import { planImport, readZoneImport } from '../../src/modules/dns/zone-import.ts';
import { parseTtl, parseZoneFile, tokenizeZone } from '../../src/modules/dns/zone-import-parser.ts';

const ZONE = 'example.com';

function read(text: string) {
  return readZoneImport(text, ZONE, 3600);
}

describe('zone file tokenizer', () => {
  it('drops comments, joins parentheses over lines and keeps the line an entry starts on', () => {
    const entries = tokenizeZone('; header\n@ IN SOA ns1 host ( 1 ; serial\n  2 3\n 4 5 )\nwww A 192.0.2.1 ; web\n');
    expect(entries.map((e) => [e.line, e.tokens.map((t) => t.text)])).toEqual([
      [2, ['@', 'IN', 'SOA', 'ns1', 'host', '1', '2', '3', '4', '5']],
      [5, ['www', 'A', '192.0.2.1']],
    ]);
  });

  it('reads quoted strings with ; ( ) inside, and escapes \\X and \\DDD (UTF-8 octets together)', () => {
    const [entry] = tokenizeZone('t TXT "a;b (c)" "q\\"uote\\\\" "caf\\195\\169" x\\032y\n');
    expect(entry?.tokens.map((t) => t.text)).toEqual(['t', 'TXT', 'a;b (c)', 'q"uote\\', 'café', 'x y']);
    expect(entry?.tokens.slice(2).map((t) => t.quoted)).toEqual([true, true, true, false]);
  });

  it('marks a blank owner, an escaped dot, and faults on their own entry only', () => {
    const entries = tokenizeZone('a A 192.0.2.1\n  A 192.0.2.2\nb\\.c A 192.0.2.3\nbad TXT "open\nok A 192.0.2.4\n)\n');
    expect(entries[1]?.blankOwner).toBe(true);
    expect(entries[2]?.tokens[0]?.escapedDot).toBe(true);
    expect(entries[3]?.error).toBe('dns.import.syntax_quote');
    expect(entries[4]?.tokens.map((t) => t.text)).toEqual(['ok', 'A', '192.0.2.4']);
    expect(entries[5]?.error).toBe('dns.import.syntax_paren');
  });

  it('reports a parenthesis left open', () => {
    expect(tokenizeZone('a TXT ( "x"\n"y"\n')[0]?.error).toBe('dns.import.syntax_paren');
  });

  it('handles CRLF line ends', () => {
    expect(tokenizeZone('a A 192.0.2.1\r\nb A 192.0.2.2\r\n').map((e) => e.tokens.length)).toEqual([3, 3]);
  });
});

describe('zone file records', () => {
  it('reads TTL units', () => {
    expect(parseTtl('3600')).toBe(3600);
    expect(parseTtl('1h30m')).toBe(5400);
    expect(parseTtl('1W')).toBe(604800);
    expect(parseTtl('1x')).toBeUndefined();
  });

  it('applies $ORIGIN (absolute and relative), $TTL, the last TTL, inherited owners and TTL/class in either order', () => {
    const { records, notes } = parseZoneFile(
      [
        'www 600 IN A 192.0.2.1',
        '    IN 1800 A 192.0.2.2',
        'mail A 192.0.2.3',
        '$TTL 1d',
        '$ORIGIN sub',
        'x A 192.0.2.4',
        '$ORIGIN other.org.',
        '@ A 192.0.2.5',
        'abs.example.com. A 192.0.2.6',
      ].join('\n'),
      ZONE,
      { maxRecords: 100 },
    );
    expect(notes).toEqual([]);
    expect(records.map((r) => [r.line, r.owner, r.ttl])).toEqual([
      [1, 'www.example.com', 600],
      [2, 'www.example.com', 1800],
      [3, 'mail.example.com', 1800],
      [6, 'x.sub.example.com', 86400],
      [8, 'other.org', 86400],
      [9, 'abs.example.com', 86400],
    ]);
  });

  it('notes $INCLUDE, unknown directives and lines without a type', () => {
    const { notes } = parseZoneFile('$INCLUDE other.zone\n$GENERATE 1-2 a$ A 1.2.3.$\nwww 600\n', ZONE, {
      maxRecords: 10,
    });
    expect(notes.map((n) => [n.line, n.reason])).toEqual([
      [1, 'dns.import.include'],
      [2, 'dns.import.directive'],
      [3, 'dns.import.syntax'],
    ]);
  });

  it('stops at the record limit', () => {
    const text = Array.from({ length: 5 }, (_, i) => `h${i} A 192.0.2.${i}`).join('\n');
    expect(parseZoneFile(text, ZONE, { maxRecords: 3 }).tooMany).toBe(true);
    expect(parseZoneFile(text, ZONE, { maxRecords: 5 }).tooMany).toBe(false);
  });
});

const FULL = `; every type the panel supports
$ORIGIN example.com.
$TTL 3600
@ IN SOA ns1.provider.net. hostmaster.example.com. (
        2026112601 ; serial
        10800 3600 604800 3600 )
@        IN NS    ns1.provider.net.
@        IN A     192.0.2.10
www  600 IN AAAA  2001:DB8:0:0::1
@        IN MX    10 mail
mail     IN A     192.0.2.20
blog     IN CNAME www
@        IN CAA   0 issue "letsencrypt.org"
_sip._tcp 1800 IN SRV 10 60 5060 sip.example.com.
@        IN ALIAS lb.provider.net.
sub      IN NS    ns.elsewhere.net.
long     IN TXT   ( "${'a'.repeat(255)}" "${'b'.repeat(255)}"
                    "${'c'.repeat(90)}" )
spf      IN TXT   "v=spf1 mx a -all"
1.2      IN PTR   host.example.com.
mx2      IN MX    25 mail
old      300 IN A 192.0.2.30
far.example.org. IN A 192.0.2.40
chaos    CH TXT   "x"
`;

describe('reading a zone file for the panel', () => {
  it('checks each record with the create form rules, keeps SOA and apex NS, refuses the rest with reasons', () => {
    const { records, refused, kept } = read(FULL);
    expect(
      records.map(({ line, zona, type, ttl, priority, value }) => [line, zona, type, ttl, priority, value]),
    ).toEqual([
      [8, '', 'A', 0, 0, '192.0.2.10'],
      [9, 'www', 'AAAA', 600, 0, '2001:db8::1'],
      [10, '', 'MX', 0, 10, 'mail.example.com'],
      [11, 'mail', 'A', 0, 0, '192.0.2.20'],
      [12, 'blog', 'CNAME', 0, 0, 'www.example.com'],
      [13, '', 'CAA', 0, 0, '0 issue "letsencrypt.org"'],
      [14, '_sip._tcp', 'SRV', 1800, 10, '60 5060 sip.example.com'],
      [15, '', 'ANAME', 0, 0, 'lb.provider.net'],
      [16, 'sub', 'NS', 0, 0, 'ns.elsewhere.net'],
      [17, 'long', 'TXT', 0, 0, `${'a'.repeat(255)}${'b'.repeat(255)}${'c'.repeat(90)}`],
      [19, 'spf', 'TXT', 0, 0, 'v=spf1 mx a -all'],
    ]);
    expect(kept.map((n) => [n.line, n.reason])).toEqual([
      [4, 'dns.import.soa_kept'],
      [7, 'dns.import.ns_kept'],
    ]);
    expect(refused.map((n) => [n.line, n.reason, n.params])).toEqual([
      [20, 'dns.import.type', { type: 'PTR' }],
      [21, 'dns.error.priority', undefined],
      [22, 'dns.import.ttl', { ttl: 300, allowed: '600, 1800, 3600, 21600, 43200, 86400' }],
      [23, 'dns.import.outside_zone', { zone: ZONE }],
      [24, 'dns.import.class', { class: 'CH' }],
    ]);
  });

  it('refuses malformed data, escaped dots in names and names the rules refuse', () => {
    const { records, refused } = read(
      [
        'a A 192.0.2.1 192.0.2.2',
        'b MX mail',
        'c CNAME x\\.y.example.com.',
        'd\\.e A 192.0.2.1',
        'under_score A 192.0.2.1',
        '@ CNAME www',
        'e A 999.0.0.1',
        'f TXT',
      ].join('\n'),
    );
    expect(records).toEqual([]);
    expect(refused.map((n) => n.reason)).toEqual([
      'dns.import.rdata',
      'dns.import.rdata',
      'dns.import.rdata',
      'dns.error.name',
      'dns.error.name',
      'dns.error.cname_apex',
      'dns.error.ipv4',
      'dns.import.rdata',
    ]);
  });

  it('reads back the ANAME the panel’s export writes as a comment, and no other comment', () => {
    const { records } = read(
      '; Zone example.com, exported by Panel247\n; flat\t3600\tIN\tANAME\tlb.example.net.\n; x A 1.2.3.4\n',
    );
    expect(records.map((r) => [r.line, r.zona, r.type, r.value])).toEqual([[2, 'flat', 'ANAME', 'lb.example.net']]);
  });

  it('reads IDN owners in Unicode as their punycode form', () => {
    expect(read('ñandú A 192.0.2.1\n').records[0]?.zona).toBe('xn--and-6ma2c');
  });
});

let nextId = 1;
function row(zona: string, type: string, value: string, extra: Partial<DnsRecordRow> = {}): DnsRecordRow {
  return {
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
  };
}

describe('planning an import', () => {
  const existing = [
    row('', 'NS', 'ns1.provider.net', { eliminable: 0 }),
    row('', 'A', '192.0.2.10'),
    row('www', 'A', '192.0.2.11'),
    row('blog', 'CNAME', 'old.example.com'),
    row('ttl', 'A', '192.0.2.12', { ttl: 600 }),
  ];
  const file = [
    '@ 3600 A 192.0.2.10', // the zone's TTL written out: unchanged
    'blog CNAME www', // the CNAME's new target: changed
    'ttl 1800 A 192.0.2.12', // changed TTL
    'new A 192.0.2.13', // added
    'new A 192.0.2.13', // twice: refused
    'www CNAME elsewhere.net.', // beside www's A: refused in merge
  ].join('\n');

  it('merge adds and changes, removes nothing, refuses what breaks the neighbour rules', () => {
    const plan = planImport(existing, read(file).records, 'merge', 3600);
    expect(plan.unchanged).toBe(1);
    expect(plan.added.map((r) => r.zona)).toEqual(['new']);
    expect(plan.changed.map((c) => [c.before.zona, c.record.value, c.record.ttl])).toEqual([
      ['blog', 'www.example.com', 0],
      ['ttl', '192.0.2.12', 1800],
    ]);
    expect(plan.removed).toEqual([]);
    expect(plan.refused.map((n) => [n.line, n.reason])).toEqual([
      [5, 'dns.error.duplicate'],
      [6, 'dns.error.cname_exclusive'],
    ]);
  });

  it('replace removes the deletable records the file lacks and keeps the provider’s', () => {
    const plan = planImport(existing, read(file).records, 'replace', 3600);
    // www's A goes, so the CNAME at www is no longer beside anything.
    expect(plan.removed.map((r) => `${r.zona} ${r.type}`)).toEqual(['www A']);
    expect(plan.added.map((r) => `${r.zona} ${r.type}`)).toEqual(['new A', 'www CNAME']);
    expect(plan.refused.map((n) => n.reason)).toEqual(['dns.error.duplicate']);
    expect(plan.unchanged).toBe(1);
  });

  it('an empty file in replace removes every deletable record', () => {
    const plan = planImport(existing, [], 'replace', 3600);
    expect(plan.removed).toHaveLength(4);
  });
});

describe('planning an import against what the DNS server serves', () => {
  const existing = [
    row('', 'A', '192.0.2.10'),
    row('', 'A', '192.0.2.11', { ttl: 1800 }),
    row('', 'TXT', 'v=spf1 mx include:spf.provider.net ~all'),
    row('_dmarc', 'TXT', 'v=DMARC1; p=none', { eliminable: 0 }),
  ];

  it('gives every record of an RRset the file’s TTL for it, listing the zone’s own as changed', () => {
    const plan = planImport(existing, read('@ 600 A 192.0.2.80\n').records, 'merge', 3600);
    expect(plan.added.map((r) => [r.value, r.ttl])).toEqual([['192.0.2.80', 600]]);
    expect(plan.changed.map((c) => [c.before.value, c.before.ttl, c.record.ttl, c.record.line])).toEqual([
      ['192.0.2.10', 0, 600, 1],
      ['192.0.2.11', 1800, 600, 1],
    ]);
  });

  it('takes an RRset’s smallest TTL in the file (what the server would serve) for all its records', () => {
    const plan = planImport([], read('www 3600 A 192.0.2.1\nwww 600 A 192.0.2.2\n').records, 'merge', 3600);
    expect(plan.added.map((r) => r.ttl)).toEqual([600, 600]);
  });

  it('leaves an RRset alone when the file sets the TTL it already has', () => {
    const plan = planImport(existing, read('@ A 192.0.2.10\n@ 3600 A 192.0.2.11\n').records, 'merge', 3600);
    // 192.0.2.11 goes from 1800 to the zone's TTL: the file's RRset TTL is the default.
    expect(plan.changed.map((c) => [c.before.value, c.record.ttl])).toEqual([['192.0.2.11', 0]]);
    expect(plan.unchanged).toBe(1);
  });

  it('shows a second SPF or DMARC record as a conflict, skipped unless replace is chosen', () => {
    const file = '@ TXT "v=spf1 -all"\n@ TXT "V=SPF1 a -all"\n_dmarc TXT "v=DMARC1; p=reject"\n';
    const skip = planImport(existing, read(file).records, 'merge', 3600);
    expect(skip.conflicts.map((c) => [c.record.line, c.existing.value, c.resolution])).toEqual([
      [1, 'v=spf1 mx include:spf.provider.net ~all', 'skip'],
      [3, 'v=DMARC1; p=none', 'skip'],
    ]);
    // The file's own second SPF record is refused whatever is chosen.
    expect(skip.refused.map((n) => [n.line, n.reason])).toEqual([[2, 'dns.error.spf_twice']]);
    expect(skip.added).toEqual([]);
    const replace = planImport(existing, read(file).records, 'merge', 3600, 'replace');
    expect(replace.added.map((r) => r.value)).toEqual(['v=spf1 -all']);
    expect(replace.removed.map((r) => r.value)).toEqual(['v=spf1 mx include:spf.provider.net ~all']);
    // The provider's undeletable DMARC record stays: the file's is skipped.
    expect(replace.conflicts.map((c) => c.resolution)).toEqual(['replace', 'skip']);
  });

  it('finds no conflict in replace mode, where the zone’s deletable SPF record goes anyway', () => {
    const plan = planImport(existing, read('@ TXT "v=spf1 -all"\n').records, 'replace', 3600);
    expect(plan.conflicts).toEqual([]);
    expect(plan.added.map((r) => r.value)).toEqual(['v=spf1 -all']);
  });
});
