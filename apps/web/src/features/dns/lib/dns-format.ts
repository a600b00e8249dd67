import { DNS_TTLS, hasPriority } from '@panel247/contract/dns-rules';

/** What a row needs to be named; `DnsRecord` fits. */
export interface NamedRecord {
  zona: string;
  referencePunycode: string;
}

/** The record's full name: its owner plus the zone in punycode ('' owner = the zone itself). */
export function fullName(record: NamedRecord): string {
  return record.zona ? `${record.zona}.${record.referencePunycode}` : record.referencePunycode;
}

/** i18n key of a TTL's label; 0 and any value outside the spec's choices read 'default'. */
export function ttlLabelKey(ttl: number): string {
  return ttl !== 0 && (DNS_TTLS as readonly number[]).includes(ttl) ? `dns.ttl_${ttl}` : 'dns.ttl_0';
}

/** The priority column shows a number only for MX and SRV. */
export function displayPriority(record: { type: string; priority: number }): string {
  return hasPriority(record.type) ? String(record.priority) : '';
}
