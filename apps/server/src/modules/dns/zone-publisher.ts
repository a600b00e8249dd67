import type { DnsPublishing } from '@panel247/contract/dns';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import { type DnsDriver, DnsRefusedError, DnsUnconfirmedError } from '../../drivers/dns/dns.driver.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { waitForWord } from '../../jobs/work-word.ts';
import { dnsRepository } from './dns.repository.ts';
import { PUBLISH_ZONE } from './zone-publish.jobs.ts';
import { zonePublishLog } from './zone-publish-log.repository.ts';
import { type DriftReport, type ZonePublish, zoneKey } from './zone-publish-log.ts';
import { type PublishedZone, ZoneServer } from './zone-server.ts';

export type { DriftReport } from './zone-publish-log.ts';
export type { PublishedZone } from './zone-server.ts';

/** A change's answer, and whether the DNS server confirmed it (otherwise it is being applied). */
export interface Changed<T> {
  value: T;
  published: boolean;
}

/** What one change wrote in the database: enough to publish it, and to undo it. */
export interface Written<T> {
  value: T;
  /** The (name, type) pairs it touched, or `zone` with the RRsets the zone had before a rewrite. */
  publish: Extract<ZonePublish, { touched: unknown } | { zoneBefore: unknown }>;
  /**
   * To put the database back: the ids to take out ('all' for every record), the rows to put back,
   * and the change set the history kept of it.
   */
  undo: { remove: number[] | 'all'; restore: DnsRecordRow[]; changeSet?: number };
}

/** What the DNS list says of a failed attempt, by the daemon error's message key. */
const FAILURE_REASONS: Record<string, 'down' | 'late'> = {
  'dns.error.server_down': 'down',
  'dns.error.server_late': 'late',
};

export interface PublishWaits {
  /** How long a change's request waits for the server before it answers "being applied". */
  changeMs: number;
  /** How long an explicit sync waits for the zone's job. */
  syncMs: number;
}

/**
 * How the database's zones reach the DNS server. The database is the source of truth; the server
 * follows it through the work log:
 *
 * Without a server (the embedded driver) a change is one transaction under the zone's row lock.
 * With one, a change commits its rows and an entry saying what it touched (dns_zone_changes) in
 * one short transaction under the zone's row lock, sends the zone's `dns.publish-zone` job, and
 * waits a short budget for the job's word (ZonePublishWorker): published, refused (the change was
 * taken out again: the user is told why), or not yet (the server is down or slow: the change is
 * kept and the job retries; the user is told it is being applied). No connection or lock is held
 * while the server answers, and one zone's slow server delays only that zone's changes.
 */
export class ZonePublisher {
  readonly server: ZoneServer;
  /**
   * Zones known to exist, so that every call does not ask again. A zone row goes only with its
   * service (ids are never reused), and every call is authorized against the service first.
   */
  private readonly knownZones = new LRUCache<number, true>({ max: 10_000 });

  constructor(
    private readonly db: Db,
    private readonly driver: DnsDriver,
    settings: { nameservers: string[]; defaultTtl: number },
    private readonly now: () => number,
    private readonly jobs: JobSender,
    private readonly waits: PublishWaits,
  ) {
    this.server = new ZoneServer(db, driver, settings);
  }

  /** One change of a zone, published (see the class comment). */
  async change<T>(zone: PublishedZone, write: (trx: Db) => Promise<Written<T>>): Promise<Changed<T>> {
    const publishes = this.driver.publishesZones;
    const { value, entry } = await this.db.transaction().execute(async (trx) => {
      await dnsRepository.lockZone(trx, zone.serviceId);
      const written = await write(trx);
      if (!publishes) return { value: written.value, entry: undefined };
      return {
        value: written.value,
        entry: await zonePublishLog.append(trx, zone.serviceId, written.publish, written.undo, this.now()),
      };
    });
    if (entry === undefined) return { value, published: true };
    const word = await this.publish(zone, entry, this.waits.changeMs);
    if (word.state === 'refused' && word.outcome && 'refused' in word.outcome)
      throw new DnsRefusedError(word.outcome.refused.reason, word.outcome.refused.detail);
    return { value, published: word.state === 'published' };
  }

  /**
   * A new zone: its row and first records in one transaction with an entry that publishes the
   * whole zone. Returns false when the zone existed (or another request created it meanwhile). A
   * server that cannot take it now gets it when its job's retry finds it answering.
   */
  /** Whether the service has its zone in the database (remembered once it has). */
  async exists(serviceId: number): Promise<boolean> {
    if (this.knownZones.has(serviceId)) return true;
    if (!(await dnsRepository.zoneExists(this.db, serviceId))) return false;
    this.knownZones.set(serviceId, true);
    return true;
  }

  async create(zone: PublishedZone, insertRecords: (trx: Db) => Promise<void>): Promise<boolean> {
    if (await this.exists(zone.serviceId)) return false;
    let entry: number | undefined;
    try {
      entry = await this.db.transaction().execute(async (trx) => {
        await dnsRepository.insertZone(trx, zone.serviceId, this.now(), this.driver.publishesZones);
        await insertRecords(trx);
        if (!this.driver.publishesZones) return undefined;
        return zonePublishLog.append(trx, zone.serviceId, { sync: true }, null, this.now());
      });
    } catch (error) {
      if (await dnsRepository.zoneExists(this.db, zone.serviceId)) return false;
      throw error;
    }
    this.knownZones.set(zone.serviceId, true);
    if (entry !== undefined) await this.publish(zone, entry, this.waits.changeMs);
    return true;
  }

  /**
   * Compares the server's copy of one zone with the database and reports what differed; unless
   * it is a dry run, the zone's job repairs it (and the history records what it repaired).
   */
  async sync(zone: PublishedZone, options: SyncOptions): Promise<DriftReport> {
    if (options.dryRun) return (await this.server.sync(zone, true)).report;
    const entry = await this.db
      .transaction()
      .execute((trx) =>
        zonePublishLog.append(trx, zone.serviceId, { sync: true, recordRepairs: true }, null, this.now()),
      );
    const word = await this.publish(zone, entry, this.waits.syncMs);
    if (word.outcome && 'report' in word.outcome) return word.outcome.report;
    const failed = word.outcome && 'failedAttempt' in word.outcome ? word.outcome.failedAttempt.detail : 'no answer';
    throw new DnsUnconfirmedError(`the sync of ${zone.name} is queued in the work log: ${failed}`);
  }

  /** Whether the zone's changes are all on the server, as the DNS list shows it. */
  async publishing(serviceId: number): Promise<DnsPublishing> {
    if (!this.driver.publishesZones) return null;
    const backlog = await zonePublishLog.backlog(this.db, serviceId);
    if (!backlog) return null;
    const { failedAttempt } = backlog;
    if (!failedAttempt) return { state: 'pending', since: backlog.since, reason: null };
    return { state: 'failing', since: backlog.since, reason: FAILURE_REASONS[failedAttempt.messageKey] ?? 'failed' };
  }

  /**
   * The zone's job now, not at its next retry (the user's "try again"): answers whether every
   * change of the zone is on the server within the budget.
   */
  async publishNow(zone: PublishedZone): Promise<boolean> {
    if (!this.driver.publishesZones) return true;
    const pending = await zonePublishLog.pending(this.db, zone.serviceId);
    const last = pending.at(-1);
    if (!last) return true;
    await zonePublishLog.clearAttempts(this.db, zone.serviceId);
    const word = await this.publish(zone, last.id, this.waits.changeMs);
    return word.state === 'published' && (await zonePublishLog.backlog(this.db, zone.serviceId)) === null;
  }

  /** Sends the job of every zone with changes still to publish (the republish round). */
  async republish(): Promise<number> {
    if (!this.driver.publishesZones) return 0;
    const zones = await dnsRepository.listUnpublishedZones(this.db);
    for (const z of zones) await this.jobs.send(PUBLISH_ZONE, { serviceId: z.service_id, zone: z.reference_punycode });
    return zones.length;
  }

  private async publish(zone: PublishedZone, entry: number, budgetMs: number) {
    // A send that fails (the engine's database away for a moment, or a process that sends no
    // jobs, like the demo seed) is made good by the servers' round; nothing to wait for here.
    const sent = await this.jobs.send(PUBLISH_ZONE, { serviceId: zone.serviceId, zone: zone.name }).then(
      () => true,
      () => false,
    );
    return this.waitFor(zone.serviceId, entry, sent ? budgetMs : 0);
  }

  /**
   * The job's word on one change, or "pending" once the budget is spent or an attempt failed
   * (the server down or silent: the work log retries it, the user need not wait for that).
   */
  private waitFor(serviceId: number, entry: number, budgetMs: number) {
    return waitForWord(
      this.db,
      zoneKey(serviceId),
      async () => (await zonePublishLog.state(this.db, entry)) ?? { state: 'published' as const, outcome: null },
      (word) => word.state !== 'pending' || (word.outcome !== null && 'failedAttempt' in word.outcome),
      budgetMs,
    );
  }
}
