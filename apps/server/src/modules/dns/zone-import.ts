import type { DnsImportData } from '@panel247/contract/dns-import';
import {
  DNS_IMPORT_MAX_RECORDS,
  DNS_TTLS,
  DNS_TYPES,
  type DnsImportConflictChoice,
  type DnsImportMode,
  type NormalisedDnsRecord,
  validateDnsRecord,
} from '@panel247/contract/dns-rules';
import { SECOND_TXT_ERROR, singleTxtKind } from '@panel247/contract/mail-auth-rules';
import type { DnsRecordRow } from '../../db/schema.ts';
import {
  absoluteZoneName,
  parseZoneFile,
  type ZoneFileRecord,
  type ZoneLineNote,
  type ZoneToken,
} from './zone-import-parser.ts';

/** A record of the file that passed the create form's rules, with its line. */
export type ImportedRecord = NormalisedDnsRecord & { line: number };

/** A file's SPF or DMARC record beside a different one the zone keeps, and what was chosen. */
export interface ImportConflict {
  record: ImportedRecord;
  existing: DnsRecordRow;
  resolution: DnsImportConflictChoice;
}

/** What an import would do to a zone, or did. */
export interface ImportPlan {
  conflicts: ImportConflict[];
  added: ImportedRecord[];
  changed: { record: ImportedRecord; before: DnsRecordRow }[];
  removed: DnsRecordRow[];
  unchanged: number;
  refused: ZoneLineNote[];
  /** Lines that stay the provider's (the SOA, the apex name servers). */
  kept: ZoneLineNote[];
}

/**
 * Reads a zone file against a zone: every record through the create form's rules, the SOA and
 * apex NS left to the provider, anything else noted with its reason. Throws nothing: a file
 * with too many records says so in `tooMany`.
 */
export function readZoneImport(
  text: string,
  zone: string,
  defaultTtl: number,
): { records: ImportedRecord[]; refused: ZoneLineNote[]; kept: ZoneLineNote[]; tooMany: boolean } {
  const parsed = parseZoneFile(uncommentExportedAnames(text), zone, { maxRecords: DNS_IMPORT_MAX_RECORDS });
  const records: ImportedRecord[] = [];
  const refused = [...parsed.notes];
  const kept: ZoneLineNote[] = [];
  for (const record of parsed.records) {
    const result = toPanelRecord(record, zone, defaultTtl);
    if ('kept' in result) kept.push({ line: record.line, reason: result.kept });
    else if ('reason' in result) refused.push({ line: record.line, reason: result.reason, params: result.params });
    else records.push({ ...result.record, line: record.line });
  }
  refused.sort((a, b) => a.line - b.line);
  return { records, refused, kept, tooMany: parsed.tooMany };
}

/**
 * The panel's own export writes an ANAME as a comment (`; flat\t3600\tIN\tANAME\thost.`: BIND has
 * no such type), so that line is read back as a record; otherwise a replace with the zone's own
 * export would drop its ANAME records. Line numbers stay as they were.
 */
function uncommentExportedAnames(text: string): string {
  return text.replace(/^;[ \t]*(?=\S+[ \t]+\d+[ \t]+IN[ \t]+ANAME[ \t]+\S+[ \t]*\r?$)/gm, '');
}

type Mapped =
  | { record: NormalisedDnsRecord }
  | { kept: string }
  | { reason: string; params?: Record<string, string | number> };

function toPanelRecord(record: ZoneFileRecord, zone: string, defaultTtl: number): Mapped {
  if (record.recordClass !== 'IN') return { reason: 'dns.import.class', params: { class: record.recordClass } };
  if (record.owner !== zone && !record.owner.endsWith(`.${zone}`)) {
    return { reason: 'dns.import.outside_zone', params: { zone } };
  }
  const zona = record.owner === zone ? '' : record.owner.slice(0, -(zone.length + 1));
  if (record.type === 'SOA') return { kept: 'dns.import.soa_kept' };
  if (record.type === 'NS' && zona === '') return { kept: 'dns.import.ns_kept' };
  // PowerDNS calls the panel's ANAME ALIAS; both are read.
  const type = record.type === 'ALIAS' ? 'ANAME' : record.type;
  if (!(DNS_TYPES as readonly string[]).includes(type)) return { reason: 'dns.import.type', params: { type } };
  const data = rdataOf(type, record.rdata, record.origin);
  if (!data) return { reason: 'dns.import.rdata', params: { type } };
  // The zone's default TTL written out (as the export does) is the form's "default" (0).
  const ttl = record.ttl === undefined || record.ttl === defaultTtl ? 0 : record.ttl;
  const result = validateDnsRecord({ type, zona, ttl, ...data }, zone);
  if (!result.record) {
    const reason = result.errors[0]?.messageKey ?? 'dns.error.value';
    // The form offers its TTLs in a list; the file's own number is worth repeating.
    if (reason === 'dns.error.ttl')
      return { reason: 'dns.import.ttl', params: { ttl, allowed: DNS_TTLS.slice(1).join(', ') } };
    return { reason };
  }
  return { record: result.record };
}

/** The record's data as the create form takes it (value and priority), or undefined if malformed. */
function rdataOf(type: string, rdata: ZoneToken[], origin: string): { value: string; priority: number } | undefined {
  // A name with an escaped dot (`a\.b`) is no host; the rules would read it as two labels.
  const host = (token: ZoneToken | undefined) =>
    token?.text === '.' ? '.' : token ? absoluteZoneName(token, origin) : undefined;
  const number = (token: ZoneToken | undefined) => (token && /^\d{1,5}$/.test(token.text) ? Number(token.text) : -1);
  const only = (count: number) => rdata.length === count && rdata.every((token) => !token.quoted || type === 'CAA');
  const withHost = (name: string | undefined, priority: number, prefix = '') =>
    name === undefined ? undefined : { value: `${prefix}${name}`, priority };
  switch (type) {
    case 'A':
    case 'AAAA':
      return only(1) ? { value: (rdata[0] as ZoneToken).text, priority: 0 } : undefined;
    case 'CNAME':
    case 'NS':
    case 'ANAME':
      return only(1) ? withHost(host(rdata[0]), 0) : undefined;
    case 'MX':
      return only(2) ? withHost(host(rdata[1]), number(rdata[0])) : undefined;
    case 'SRV':
      if (!only(4)) return undefined;
      return withHost(
        host(rdata[3]),
        number(rdata[0]),
        `${(rdata[1] as ZoneToken).text} ${(rdata[2] as ZoneToken).text} `,
      );
    case 'CAA': {
      if (!only(3)) return undefined;
      const [flag, tag, target] = rdata as [ZoneToken, ZoneToken, ZoneToken];
      return { value: `${flag.text} ${tag.text} "${target.text}"`, priority: 0 };
    }
    case 'TXT':
      // Multi-string TXT is one text (RFC 7208 3.3): the pieces join with nothing between them.
      return rdata.length > 0 ? { value: rdata.map((token) => token.text).join(''), priority: 0 } : undefined;
    default:
      return undefined;
  }
}

/** Two records are the same record: CNAME by name (one per name), the others by name, type and data. */
function identity(record: { zona: string; type: string; value: string; priority: number }): string {
  return record.type === 'CNAME'
    ? `${record.zona}\u0000CNAME`
    : `${record.zona}\u0000${record.type}\u0000${record.priority}\u0000${record.value}`;
}

/**
 * What importing `records` into a zone holding `existing` does. Merge keeps every record and adds
 * or changes; replace also removes the deletable records the file does not have (the provider's
 * undeletable ones stay). A record already there is changed only when its TTL (or a CNAME's
 * target) differs. The neighbour rules of the create form hold in the result: a CNAME stands
 * alone at its name, no record twice, one SPF record per name and one DMARC record at `_dmarc`;
 * a line that would break them is refused. A file's SPF or DMARC record beside a different one
 * the zone keeps is a conflict, which `conflicts` settles: `replace` takes the zone's out (when it
 * may be deleted), `skip` leaves the file's out.
 *
 * The DNS server serves one TTL per RRset (name and type), so the file's TTL for an RRset (its
 * smallest, as the server would serve it) becomes the TTL of every record of that RRset, those
 * the zone keeps too: a record whose TTL changes that way is listed as changed.
 */
export function planImport(
  existing: DnsRecordRow[],
  records: ImportedRecord[],
  mode: DnsImportMode,
  defaultTtl: number,
  conflicts: DnsImportConflictChoice = 'skip',
): Omit<ImportPlan, 'refused' | 'kept'> & { refused: ZoneLineNote[] } {
  const byIdentity = new Map<string, DnsRecordRow>();
  const atName = new Map<string, { type: string; identity: string }[]>();
  const place = (record: { zona: string; type: string }, key: string) => {
    const list = atName.get(record.zona);
    if (list) list.push({ type: record.type, identity: key });
    else atName.set(record.zona, [{ type: record.type, identity: key }]);
  };
  const stays = new Set<string>();
  for (const row of existing) {
    const key = identity(row);
    byIdentity.set(key, row);
    if (mode === 'merge' || row.eliminable !== 1) {
      place(row, key);
      stays.add(key);
    }
  }
  const refused: ZoneLineNote[] = [];
  const found: ImportConflict[] = [];
  const replaced: DnsRecordRow[] = [];
  const accepted: { record: ImportedRecord; before?: DnsRecordRow }[] = [];
  const taken = new Set<string>();
  /** The file's SPF and DMARC records already accepted, by name and kind. */
  const singles = new Set<string>();
  for (const record of records) {
    const key = identity(record);
    if (taken.has(key)) {
      refused.push({ line: record.line, reason: 'dns.error.duplicate' });
      continue;
    }
    const others = (atName.get(record.zona) ?? []).filter((other) => other.identity !== key);
    if (record.type === 'CNAME' ? others.length > 0 : others.some((other) => other.type === 'CNAME')) {
      refused.push({ line: record.line, reason: 'dns.error.cname_exclusive' });
      continue;
    }
    const kind = record.type === 'TXT' ? singleTxtKind(record.zona, record.value) : undefined;
    if (kind) {
      if (singles.has(`${record.zona}\u0000${kind}`)) {
        refused.push({ line: record.line, reason: SECOND_TXT_ERROR[kind] });
        continue;
      }
      const rival = existing.find(
        (row) =>
          row.zona === record.zona &&
          row.type === 'TXT' &&
          identity(row) !== key &&
          stays.has(identity(row)) &&
          !replaced.includes(row) &&
          singleTxtKind(row.zona, row.value) === kind,
      );
      singles.add(`${record.zona}\u0000${kind}`);
      if (rival) {
        const resolution = conflicts === 'replace' && rival.eliminable === 1 ? 'replace' : 'skip';
        found.push({ record, existing: rival, resolution });
        if (resolution === 'skip') continue;
        replaced.push(rival);
      }
    }
    taken.add(key);
    const before = byIdentity.get(key);
    if (!before || !stays.has(key)) place(record, key);
    accepted.push({ record, before });
  }
  const removed = [
    ...(mode === 'replace' ? existing.filter((row) => row.eliminable === 1 && !taken.has(identity(row))) : []),
    ...replaced,
  ];
  return { ...settleTtls(existing, accepted, removed, defaultTtl), removed, refused, conflicts: found };
}

/**
 * The records the file brings, each with its RRset's TTL, sorted into added, changed (their TTL
 * or value differs from the zone's) and unchanged; and the zone's records that are not in the
 * file but whose RRset's TTL the file sets, as changed.
 */
function settleTtls(
  existing: DnsRecordRow[],
  accepted: { record: ImportedRecord; before?: DnsRecordRow }[],
  removed: DnsRecordRow[],
  defaultTtl: number,
): { added: ImportedRecord[]; changed: ImportPlan['changed']; unchanged: number } {
  const effective = (ttl: number) => ttl || defaultTtl;
  const rrset = (record: { zona: string; type: string }) => `${record.zona}\u0000${record.type}`;
  /** Each RRset's TTL as the file gives it, and the line that gives it. */
  const ttls = new Map<string, ImportedRecord>();
  for (const { record } of accepted) {
    const set = ttls.get(rrset(record));
    if (!set || effective(record.ttl) < effective(set.ttl)) ttls.set(rrset(record), record);
  }
  const ttlOf = (record: { zona: string; type: string; ttl: number }) => ttls.get(rrset(record))?.ttl ?? record.ttl;
  const plan = { added: [] as ImportedRecord[], changed: [] as ImportPlan['changed'], unchanged: 0 };
  const matched = new Set<number>();
  for (const { record: read, before } of accepted) {
    const record = { ...read, ttl: ttlOf(read) };
    if (!before) plan.added.push(record);
    else {
      matched.add(before.id);
      if (effective(before.ttl) === effective(record.ttl) && before.value === record.value) plan.unchanged++;
      else plan.changed.push({ record, before });
    }
  }
  const gone = new Set(removed.map((row) => row.id));
  for (const row of existing) {
    const set = ttls.get(rrset(row));
    if (!set || matched.has(row.id) || gone.has(row.id) || effective(row.ttl) === effective(set.ttl)) continue;
    const { zona, type, priority, value } = row;
    plan.changed.push({
      record: { line: set.line, zona, type: type as ImportedRecord['type'], priority, value, ttl: set.ttl },
      before: row,
    });
  }
  return plan;
}

/**
 * The plan as the API answers it: each line not imported with its text (cut short) and its
 * reason in the caller's language.
 */
export function importAnswer(
  plan: ImportPlan,
  text: string,
  mode: DnsImportMode,
  applied: boolean,
  translate: (key: string, params?: Record<string, string | number>) => string,
): DnsImportData {
  const lines = text.split('\n');
  const note = ({ line, reason, params }: ZoneLineNote) => ({
    line,
    text: (lines[line - 1] ?? '').trim().slice(0, 200),
    reason: translate(reason, params),
  });
  const record = ({ line, zona, type, ttl, priority, value }: ImportedRecord) => ({
    line,
    zona,
    type,
    ttl,
    priority,
    value,
  });
  return {
    mode,
    added: plan.added.map(record),
    changed: plan.changed.map(({ record: r, before }) => ({
      ...record(r),
      before: { id: before.id, ttl: before.ttl, value: before.value },
    })),
    removed: plan.removed.map(({ id, zona, type, ttl, priority, value }) => ({ id, zona, type, ttl, priority, value })),
    conflicts: plan.conflicts.map(({ record: r, existing, resolution }) => ({
      ...record(r),
      existing: { id: existing.id, ttl: existing.ttl, value: existing.value },
      resolution,
    })),
    unchanged: plan.unchanged,
    refused: plan.refused.map(note),
    kept: plan.kept.map(note),
    applied,
  };
}
