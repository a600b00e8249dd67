import type { Db } from '../../db/database.ts';
import type { RRset } from '../../drivers/dns/dns.driver.ts';
import { DnsRefusedError, DnsUnconfirmedError } from '../../drivers/dns/dns.driver.ts';
import { DaemonError } from '../../errors.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { signalWork } from '../../jobs/work-word.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { dnsRepository } from './dns.repository.ts';
import { dnsHistoryRepository } from './dns-history.repository.ts';
import { CHECK_ZONE } from './zone-publish.jobs.ts';
import { zonePublishLog } from './zone-publish-log.repository.ts';
import { type ZoneChangeEntry, type ZoneUndo, zoneKey } from './zone-publish-log.ts';
import { isClean, type PublishedZone, type ZoneServer } from './zone-server.ts';

/** How long finished changes are kept for the requests waiting on them. */
const KEEP_FINISHED_SECONDS = 600;

/** After a change the server did not confirm: passes that must find the zone as the database has it. */
const CHECKS_AFTER_UNCONFIRMED = 2;

export interface ZonePublishTimes {
  /** Seconds between the passes that check a zone after a change the server did not confirm. */
  recheckSeconds: number;
}

/** Told what a sync asked for found on the server and wrote over it (the zone's history). */
export type RecordRepair = (
  db: Db,
  serviceId: number,
  zone: string,
  server: RRset[],
  wanted: RRset[],
) => Promise<unknown>;

/**
 * What a zone's `dns.publish-zone` job does: the zone's pending changes (dns_zone_changes) to the
 * DNS server, in the order they were made. One job per zone runs at a time (the work log's key),
 * so the changes of one zone never overtake each other, on any instance.
 *
 * - Each change sends what it touched as the database holds it then; the server confirms: it is
 *   published.
 * - The server refuses one: it, and every later change of the zone not yet published (made on
 *   top of it), are taken out of the database again, newest first, and their requests told why.
 * - The server is down or does not answer: the changes stay pending and the job fails, to be
 *   retried with backoff; the requests are told it is being applied. One the server did not
 *   confirm is checked again later, because a hung server may apply it when it wakes.
 * - A sync (asked for, or a check) compares the whole zone and repairs what differs.
 */
export class ZonePublishWorker {
  constructor(
    private readonly db: Db,
    private readonly server: ZoneServer,
    private readonly jobs: JobSender,
    private readonly recordRepair: RecordRepair,
    private readonly now: () => number,
    private readonly times: ZonePublishTimes,
    /** Told when the zone's changes moved on (the realtime channel), once a run had any. */
    private readonly landed?: WorkLanded,
  ) {}

  async run(zone: PublishedZone): Promise<void> {
    const moved = { any: false };
    try {
      await this.publishPending(zone, moved);
    } finally {
      signalWork(this.db, zoneKey(zone.serviceId));
      // The word is recorded; a browser that misses it reads it on its next visit.
      if (moved.any) await this.landed?.('dns', zone.serviceId).catch(() => undefined);
    }
  }

  private async publishPending(zone: PublishedZone, moved: { any: boolean }): Promise<void> {
    const entries = await zonePublishLog.pending(this.db, zone.serviceId);
    if (entries.length > 0) {
      moved.any = true;
      try {
        await this.server.ensure(zone);
        if (entries.some((entry) => 'sync' in entry.publish)) await this.syncAll(zone, entries);
        else await this.sendInOrder(zone, entries);
      } catch (error) {
        await this.failedAttempt(zone, entries, error);
        throw error;
      }
    }
    await zonePublishLog.forgetFinished(this.db, zone.serviceId, this.now() - KEEP_FINISHED_SECONDS);
    // Left: a change made meanwhile (its own job waits), or a check the zone still owes.
    const left = await zonePublishLog.pending(this.db, zone.serviceId);
    if (left.some((entry) => 'sync' in entry.publish && entry.publish.checks))
      await this.jobs.send(
        CHECK_ZONE,
        { serviceId: zone.serviceId, zone: zone.name },
        { afterSeconds: this.times.recheckSeconds },
      );
  }

  private async sendInOrder(zone: PublishedZone, entries: ZoneChangeEntry[]): Promise<void> {
    for (const entry of entries) {
      try {
        if ('touched' in entry.publish) await this.server.sendTouched(zone, entry.publish.touched);
        else if ('zoneBefore' in entry.publish) await this.server.sendZone(zone, entry.publish.zoneBefore);
      } catch (error) {
        if (!(error instanceof DnsRefusedError)) throw error;
        await this.refuse(zone, entry.id, error);
        return;
      }
      await zonePublishLog.finish(this.db, zone.serviceId, [entry.id], 'published');
    }
  }

  /** One comparison of the whole zone covers every pending change. */
  private async syncAll(zone: PublishedZone, entries: ZoneChangeEntry[]): Promise<void> {
    const { report, server, wanted } = await this.server.sync(zone, false);
    const clean = isClean(report);
    if (!clean && entries.some((entry) => 'sync' in entry.publish && entry.publish.recordRepairs))
      await this.recordRepair(this.db, zone.serviceId, zone.name, server, wanted);
    const done: number[] = [];
    for (const entry of entries) {
      const publish = entry.publish;
      if (!('sync' in publish)) done.push(entry.id);
      else if (publish.checks === undefined)
        await zonePublishLog.finish(this.db, zone.serviceId, [entry.id], 'published', { report });
      else {
        // Only a clean pass counts: one that repaired something says nothing of a late write to come.
        const checks = clean ? publish.checks - 1 : Math.max(1, publish.checks - 1);
        if (checks === 0) await zonePublishLog.finish(this.db, zone.serviceId, [entry.id], 'published', { report });
        else await zonePublishLog.note(this.db, entry.id, { publish: { ...publish, checks } });
      }
    }
    await zonePublishLog.finish(this.db, zone.serviceId, done, 'published');
  }

  /** The refused change and every later one of the zone leave the database, newest first. */
  private async refuse(zone: PublishedZone, fromId: number, error: DnsRefusedError): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await dnsRepository.lockZone(trx, zone.serviceId);
      const undone = (await zonePublishLog.pending(trx, zone.serviceId, fromId)).filter((entry) => entry.undo);
      for (const entry of [...undone].reverse()) await undo(trx, zone.serviceId, entry.undo as ZoneUndo);
      await zonePublishLog.finish(
        trx,
        zone.serviceId,
        undone.map((entry) => entry.id),
        'refused',
        { refused: { reason: error.reason, detail: error.detail } },
      );
    });
  }

  /**
   * The server down or silent: the changes wait for the job's retry, their requests are told so.
   * A change it did not confirm may still land late: the zone owes checks until it is seen right.
   */
  private async failedAttempt(zone: PublishedZone, entries: ZoneChangeEntry[], error: unknown): Promise<void> {
    if (!(error instanceof DaemonError)) return;
    const outcome = { failedAttempt: { messageKey: error.messageKey, detail: error.detail } };
    for (const entry of entries) await zonePublishLog.note(this.db, entry.id, { outcome });
    if (error instanceof DnsUnconfirmedError && !entries.some((entry) => 'sync' in entry.publish))
      await this.db
        .transaction()
        .execute((trx) =>
          zonePublishLog.append(
            trx,
            zone.serviceId,
            { sync: true, checks: CHECKS_AFTER_UNCONFIRMED },
            null,
            this.now(),
          ),
        );
  }
}

/** Puts the database back as it was before one change. */
async function undo(trx: Db, serviceId: number, undo: ZoneUndo): Promise<void> {
  if (undo.remove === 'all') await dnsRepository.deleteAll(trx, serviceId);
  else await dnsRepository.deleteIds(trx, serviceId, undo.remove);
  await dnsRepository.restoreRows(trx, undo.restore);
  if (undo.changeSet !== undefined) await dnsHistoryRepository.deleteChangeSet(trx, undo.changeSet);
}
