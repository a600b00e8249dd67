import { canonicalIPv6 } from '@panel247/contract/dns-rules';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import { type DnsDriver, DnsUnconfirmedError, type RRset } from '../../drivers/dns/dns.driver.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { DaemonError } from '../../errors.ts';
import { dnsRepository } from './dns.repository.ts';
import { dnsHistoryRepository } from './dns-history.repository.ts';
import { ZoneLeases, type ZoneLeaseTimes } from './zone-lease.ts';
import { toRRsets, touchedRRsets } from './zone-rendering.ts';

export interface PublishedZone {
  serviceId: number;
  /** ASCII zone name without the trailing dot. */
  name: string;
}

export interface DriftReport {
  zone: string;
  missing: string[];
  extra: string[];
  changed: string[];
}

/** A change's answer, and whether the DNS server confirmed it (otherwise it is still to publish). */
export interface Changed<T> {
  value: T;
  published: boolean;
}

/** What one change wrote in the database: enough to publish it, and to undo it. */
export interface Written<T> {
  value: T;
  /** The (name, type) pairs it touched, or `zone` with the RRsets the zone had before a rewrite. */
  publish: { touched: { zona: string; type: string }[] } | { zoneBefore: RRset[] };
  /**
   * To put the database back: the ids to take out ('all' for every record), the rows to put back,
   * and the change set the history kept of it.
   */
  undo: { remove: number[] | 'all'; restore: DnsRecordRow[]; changeSet?: number };
}

/** Told what a sync found on the server and wrote over it (for the zone's history). */
type Repaired = (server: RRset[], wanted: RRset[]) => Promise<unknown>;

/**
 * How the database's zones reach the DNS server. The database is the source of truth; the server
 * follows it:
 *
 * Without a server (the embedded driver) a change is one transaction under the zone's row lock.
 * With one:
 *
 * 1. A change takes the zone's lease (changes of one zone in order, on every instance), commits
 *    its rows in a short transaction that also marks the zone unpublished, and only then sends the
 *    touched RRsets, as the database now holds them. No connection is held while the server
 *    answers.
 * 2. The server confirms: the mark goes (if the zone was published before). It refuses, or was
 *    never reached: the rows are put back, so nothing was changed, as the user is told. It does
 *    not answer in time: it may apply the change later, so the change stays, marked; the user is
 *    told it is saved and not yet confirmed.
 * 3. `publishPending` (run every few seconds by the server) compares each marked zone with the
 *    server and rewrites what differs; the mark goes after a later pass finds nothing to repair,
 *    so a request a hung server applies on waking is caught too.
 */
export class ZonePublisher {
  private readonly leases: ZoneLeases;
  /** Marked zones this instance has already checked once with the server answering. */
  private readonly checkedOnce = new Set<number>();
  /**
   * Zones known to exist, so that every call does not ask again. A zone row goes only with its
   * service (ids are never reused), and every call is authorized against the service first.
   */
  private readonly knownZones = new LRUCache<number, true>({ max: 10_000 });

  constructor(
    private readonly db: Db,
    private readonly driver: DnsDriver,
    private readonly settings: { nameservers: string[]; defaultTtl: number },
    private readonly now: () => number,
    leaseTimes?: ZoneLeaseTimes,
  ) {
    this.leases = new ZoneLeases(db, now, leaseTimes);
  }

  /** One change of a zone, published (see the class comment). */
  change<T>(zone: PublishedZone, write: (trx: Db) => Promise<Written<T>>): Promise<Changed<T>> {
    // Without a server (the embedded driver) nothing slow happens inside the transaction, so the
    // zone's row lock alone keeps its changes in order, in one round trip instead of a lease's two.
    if (!this.driver.publishesZones) {
      return this.db.transaction().execute(async (trx) => {
        await dnsRepository.lockZone(trx, zone.serviceId);
        return { value: (await write(trx)).value, published: true };
      });
    }
    return this.leases.hold(zone.serviceId, async () => {
      const wasPublished = (await dnsRepository.unpublishedSince(this.db, zone.serviceId)) === null;
      const written = await this.db.transaction().execute(async (trx) => {
        // Marked in the same commit: an instance that stops before publishing leaves the zone to
        // the publisher instead of silently out of step.
        await dnsRepository.markUnpublished(trx, zone.serviceId, this.now());
        return write(trx);
      });
      try {
        await this.send(zone, written.publish);
      } catch (error) {
        if (error instanceof DnsUnconfirmedError) return { value: written.value, published: false };
        await this.undo(zone, written.undo, wasPublished);
        throw error;
      }
      if (wasPublished) await dnsRepository.markPublished(this.db, zone.serviceId);
      return { value: written.value, published: true };
    });
  }

  /**
   * A new zone: its row (lease held, marked) and first records in one transaction, then the zone
   * and its records on the server. A server that refuses or is down takes the zone out again;
   * one that does not answer leaves it to the publisher. Returns false when the zone existed (or
   * another request created it meanwhile).
   */
  async create(zone: PublishedZone, insertRecords: (trx: Db) => Promise<void>): Promise<boolean> {
    if (this.knownZones.has(zone.serviceId)) return false;
    if (await dnsRepository.zoneExists(this.db, zone.serviceId)) {
      this.knownZones.set(zone.serviceId, true);
      return false;
    }
    const lease = this.leases.newLease();
    try {
      await this.db.transaction().execute(async (trx) => {
        await dnsRepository.insertZone(trx, zone.serviceId, this.now(), lease);
        await insertRecords(trx);
      });
    } catch (error) {
      if (await dnsRepository.zoneExists(this.db, zone.serviceId)) return false;
      throw error;
    }
    await this.leases.holdCreated(zone.serviceId, lease.owner, async () => {
      try {
        await this.driver.ensureZone(zone.name, this.settings.nameservers);
        await this.send(zone, { zoneBefore: [] });
      } catch (error) {
        if (error instanceof DnsUnconfirmedError) return;
        await dnsRepository.deleteZone(this.db, zone.serviceId);
        throw error;
      }
      await dnsRepository.markPublished(this.db, zone.serviceId);
    });
    this.knownZones.set(zone.serviceId, true);
    return true;
  }

  /** Rewrites the server's copy of one zone from the database (not on a dry run); reports what differed before. */
  sync(zone: PublishedZone, options: SyncOptions, repaired?: Repaired): Promise<DriftReport> {
    return this.leases.hold(zone.serviceId, () => this.syncHeld(zone, options, repaired));
  }

  /**
   * Checks every zone marked unpublished against the server and repairs it; a zone's mark goes
   * once a pass finds it clean after an earlier pass of this instance saw the server answer.
   * Stops at the first zone the server does not answer for (the next run tries again).
   */
  async publishPending(): Promise<DriftReport[]> {
    if (!this.driver.publishesZones) return [];
    const reports: DriftReport[] = [];
    for (const z of await dnsRepository.listUnpublishedZones(this.db)) {
      const zone = { serviceId: z.service_id, name: z.reference_punycode };
      try {
        reports.push(
          await this.leases.hold(zone.serviceId, async () => {
            const report = await this.syncHeld(zone, { dryRun: false });
            if (isClean(report) && this.checkedOnce.has(zone.serviceId)) {
              await dnsRepository.markPublished(this.db, zone.serviceId);
              this.checkedOnce.delete(zone.serviceId);
            } else {
              this.checkedOnce.add(zone.serviceId);
            }
            return report;
          }),
        );
      } catch (error) {
        this.checkedOnce.delete(zone.serviceId);
        if (error instanceof DaemonError) break;
        throw error;
      }
    }
    return reports;
  }

  private async syncHeld(zone: PublishedZone, options: SyncOptions, repaired?: Repaired): Promise<DriftReport> {
    const wanted = toRRsets(await dnsRepository.list(this.db, zone.serviceId), zone.name, this.settings.defaultTtl);
    const actual = (await this.driver.readZone(zone.name)) ?? [];
    const found = diff(zone.name, wanted, actual);
    if (!isClean(found) && !options.dryRun) {
      await this.driver.ensureZone(zone.name, this.settings.nameservers);
      await this.send(zone, { zoneBefore: actual });
      await repaired?.(actual, wanted);
    }
    return found;
  }

  /** Sends what the database holds now for what a change touched (for a rewrite, the zone). */
  private async send(zone: PublishedZone, publish: Written<unknown>['publish']): Promise<void> {
    const ttl = this.settings.defaultTtl;
    if ('touched' in publish) {
      const names = [...new Set(publish.touched.map((t) => t.zona))];
      const rows = (await Promise.all(names.map((zona) => dnsRepository.listAt(this.db, zone.serviceId, zona)))).flat();
      await this.driver.replaceRRsets(zone.name, touchedRRsets(publish.touched, rows, zone.name, ttl));
      return;
    }
    const wanted = toRRsets(await dnsRepository.list(this.db, zone.serviceId), zone.name, ttl);
    const keep = new Set(wanted.map((set) => `${set.name} ${set.type}`));
    const gone = publish.zoneBefore
      .filter((set) => !keep.has(`${set.name} ${set.type}`))
      .map((set) => ({ ...set, contents: [] }));
    await this.driver.replaceRRsets(zone.name, [...wanted, ...gone]);
  }

  /** The server did not apply the change: the database goes back to what it had. */
  private async undo(zone: PublishedZone, undo: Written<unknown>['undo'], wasPublished: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (undo.remove === 'all') await dnsRepository.deleteAll(trx, zone.serviceId);
      else await dnsRepository.deleteIds(trx, zone.serviceId, undo.remove);
      await dnsRepository.restoreRows(trx, undo.restore);
      if (undo.changeSet !== undefined) await dnsHistoryRepository.deleteChangeSet(trx, undo.changeSet);
      if (wasPublished) await dnsRepository.markPublished(trx, zone.serviceId);
    });
  }
}

function isClean(report: DriftReport): boolean {
  return report.missing.length + report.extra.length + report.changed.length === 0;
}

function diff(zone: string, wanted: RRset[], actual: RRset[]): DriftReport {
  const key = (set: RRset) => `${set.name} ${set.type}`;
  // PowerDNS prints an IPv4-mapped AAAA with a dotted tail, the panel sends it in hex: same address.
  const content = (set: RRset, text: string) =>
    set.type === 'AAAA' ? (canonicalIPv6(text) ?? text.toLowerCase()) : text.toLowerCase();
  const normal = (set: RRset) =>
    `${set.ttl} ${[...set.contents]
      .map((c) => content(set, c))
      .sort()
      .join(' | ')}`;
  const have = new Map(actual.map((set) => [key(set), set]));
  const want = new Map(wanted.map((set) => [key(set), set]));
  const report: DriftReport = { zone, missing: [], extra: [], changed: [] };
  for (const [k, set] of want) {
    const found = have.get(k);
    if (!found) report.missing.push(k);
    else if (normal(found) !== normal(set)) report.changed.push(k);
  }
  for (const [k] of have) if (!want.has(k)) report.extra.push(k);
  return report;
}
