import { DaemonError } from '../../errors.ts';

/**
 * The DNS driver: what the panel asks of an authoritative server. Names are absolute with the
 * trailing dot; contents are in zone-file presentation format. The panel database stays the
 * source of truth: a driver only ever receives complete RRsets computed from it.
 */

export interface RRset {
  /** Absolute owner name, e.g. `www.example.com.` */
  name: string;
  type: string;
  ttl: number;
  contents: string[];
}

export interface DsRecord {
  keytag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

export interface DnsDriver {
  readonly kind: 'database' | 'powerdns';
  /**
   * Whether a real server publishes the zones. Without one (the embedded driver) the database is
   * all there is: nothing can drift, and name servers under the panel's zones resolve only
   * through the panel itself.
   */
  readonly publishesZones: boolean;
  /** Whether the server can sign the zones (DNSSEC keys, DS records). */
  readonly signsZones: boolean;
  /** Creates the zone (SOA and the given name servers) when the server does not have it yet. */
  ensureZone(zone: string, nameservers: string[]): Promise<void>;
  /** Replaces each RRset (name + type) with the given records; an empty `contents` deletes it. */
  replaceRRsets(zone: string, rrsets: RRset[]): Promise<void>;
  /**
   * Removes the zone and everything of it (records, DNSSEC keys) from the server; nothing when it
   * has no such zone. A terminated service's zone.
   */
  removeZone(zone: string): Promise<void>;
  /** What the server holds now (SOA left out), for drift reports; undefined when it holds nothing. */
  readZone(zone: string): Promise<RRset[] | undefined>;
  /** Turns DNSSEC on for the zone if needed and returns its DS records. */
  dsRecords(zone: string): Promise<DsRecord[]>;
  /**
   * The DS records of the zone's active keys, changing nothing: [] when the zone is not signed or
   * not on the server. Left out by servers that cannot sign.
   */
  signedDs?(zone: string): Promise<DsRecord[]>;
  /**
   * Stops signing the zone: every key goes (PowerDNS then serves it unsigned). Only ever called
   * once no DS of the zone is left at the registry and resolvers have forgotten it.
   */
  removeKeys?(zone: string): Promise<void>;
}

/**
 * The server refused a change (PowerDNS answers HTTP 422 and writes nothing). `reason` says what
 * it objected to, so the service can put the error under the form field that can fix it: `name`
 * when the owner name clashes with what the server holds (e.g. a CNAME planted beside it),
 * `content` when it could not parse a record, `other` for anything else (then a global error,
 * logged with the server's message like every DaemonError).
 */
export class DnsRefusedError extends DaemonError {
  constructor(
    readonly reason: 'name' | 'content' | 'other',
    detail: string,
  ) {
    super('dns.error.refused', detail);
  }
}

/**
 * A change was sent but the server did not answer (a timeout, a connection cut after the
 * request): it may have applied it, now or later (a hung PowerDNS applies what it received when
 * it wakes up). Not a refusal: the caller must not say "nothing was changed".
 */
export class DnsUnconfirmedError extends DaemonError {
  constructor(detail: string) {
    super('dns.error.server_late', detail);
  }
}
