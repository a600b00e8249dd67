import { quoteTxt } from '@panel247/contract/dns-rules';
import type { RRset } from '../../drivers/dns/dns.driver.ts';

/** The parts of a record that decide what the zone publishes. */
export interface ZoneRecord {
  zona: string;
  type: string;
  ttl: number;
  priority: number;
  value: string;
}

export function absoluteName(zona: string, zone: string): string {
  return zona ? `${zona}.${zone}.` : `${zone}.`;
}

const fqdn = (host: string) => (host === '.' || host.endsWith('.') ? host : `${host}.`);

/**
 * A record's content in presentation format. SRV values are stored as "weight port target" and
 * the priority lives in its own column; ANAME is PowerDNS's ALIAS.
 */
export function toContent(record: ZoneRecord): string {
  switch (record.type) {
    case 'CNAME':
    case 'NS':
    case 'ANAME':
      return fqdn(record.value);
    case 'MX':
      return `${record.priority} ${fqdn(record.value)}`;
    case 'SRV': {
      const [weight, port, target] = record.value.split(' ');
      return `${record.priority} ${weight} ${port} ${fqdn(target ?? '.')}`;
    }
    case 'TXT':
      return quoteTxt(record.value);
    case 'AAAA':
      return hexIPv6(record.value);
    default:
      return record.value;
  }
}

/**
 * An IPv6 address without a dotted IPv4 tail: the panel stores IPv4-mapped addresses the RFC 5952
 * way (`::ffff:192.0.2.1`), which PowerDNS 4.7's API refuses ("Invalid IPv6 address") although it
 * prints them so itself; `::ffff:c000:201` is the same address, accepted by PowerDNS and BIND.
 */
export function hexIPv6(address: string): string {
  const match = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (!match) return address;
  const [a, b, c, d] = match.slice(2).map(Number) as [number, number, number, number];
  return `${match[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

export function serverType(type: string): string {
  return type === 'ANAME' ? 'ALIAS' : type;
}

function rrsetKey(name: string, type: string) {
  return `${name} ${type}`;
}

/**
 * Groups records into RRsets. An RRset has one TTL: when its records differ, the smallest wins
 * (0 means the zone's default TTL).
 */
export function toRRsets(records: ZoneRecord[], zone: string, defaultTtl: number): RRset[] {
  const sets = new Map<string, RRset>();
  for (const record of records) {
    const name = absoluteName(record.zona, zone);
    const type = serverType(record.type);
    const ttl = record.ttl || defaultTtl;
    const key = rrsetKey(name, type);
    const set = sets.get(key) ?? { name, type, ttl, contents: [] };
    set.ttl = Math.min(set.ttl, ttl);
    set.contents.push(toContent(record));
    sets.set(key, set);
  }
  return [...sets.values()];
}

/**
 * The RRsets to send after a change: every (name, type) touched, with what the database now holds
 * for it — an empty list deletes the RRset on the server.
 */
export function touchedRRsets(
  touched: { zona: string; type: string }[],
  current: ZoneRecord[],
  zone: string,
  defaultTtl: number,
): RRset[] {
  const all = new Map(toRRsets(current, zone, defaultTtl).map((set) => [rrsetKey(set.name, set.type), set]));
  const result = new Map<string, RRset>();
  for (const { zona, type } of touched) {
    const name = absoluteName(zona, zone);
    const key = rrsetKey(name, serverType(type));
    result.set(key, all.get(key) ?? { name, type: serverType(type), ttl: defaultTtl, contents: [] });
  }
  return [...result.values()];
}

/**
 * The zone in BIND master-file format. ANAME has no standard type, so it is written as a comment
 * (the authoritative server flattens it; a BIND secondary would not understand it anyway).
 */
export function toBindZone(
  records: ZoneRecord[],
  zone: string,
  options: { defaultTtl: number; nameservers: string[]; serial: number },
): string {
  const primary = fqdn(options.nameservers[0] ?? `ns1.${zone}`);
  const lines = [
    `; Zone ${zone}, exported by Panel247`,
    `$ORIGIN ${zone}.`,
    `$TTL ${options.defaultTtl}`,
    `@\tIN\tSOA\t${primary} hostmaster.${zone}. ${options.serial} 10800 3600 604800 3600`,
  ];
  for (const record of records) {
    const owner = record.zona || '@';
    const ttl = record.ttl || options.defaultTtl;
    if (record.type === 'ANAME') {
      lines.push(`; ${owner}\t${ttl}\tIN\tANAME\t${fqdn(record.value)}`);
      continue;
    }
    lines.push(`${owner}\t${ttl}\tIN\t${record.type}\t${toContent(record)}`);
  }
  return `${lines.join('\n')}\n`;
}
