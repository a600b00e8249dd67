import { atomically, type Db } from '../../db/database.ts';
import { dnsRepository } from './dns.repository.ts';
import type { ZoneChangeEntry, ZoneChangeOutcome, ZonePublish, ZoneUndo } from './zone-publish-log.ts';

/**
 * The zone changes on their way to the DNS server (dns_zone_changes), written in each change's
 * own transaction, taken in order by the zone's `dns.publish-zone` job.
 */
export const zonePublishLog = {
  async append(trx: Db, serviceId: number, publish: ZonePublish, undo: ZoneUndo | null, now: number): Promise<number> {
    const row = await trx
      .insertInto('dns_zone_changes')
      .values({
        service_id: serviceId,
        publish: JSON.stringify(publish),
        undo: undo && JSON.stringify(undo),
        state: 'pending',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('dns_zones')
      .set((eb) => ({ unpublished_since: eb.fn.coalesce('unpublished_since', eb.val(now)) }))
      .where('service_id', '=', serviceId)
      .execute();
    return row.id;
  },

  async pending(db: Db, serviceId: number, fromId = 0): Promise<ZoneChangeEntry[]> {
    const rows = await db
      .selectFrom('dns_zone_changes')
      .select(['id', 'publish', 'undo'])
      .where('service_id', '=', serviceId)
      .where('state', '=', 'pending')
      .where('id', '>=', fromId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      publish: JSON.parse(row.publish) as ZonePublish,
      undo: row.undo ? (JSON.parse(row.undo) as ZoneUndo) : null,
    }));
  },

  async state(db: Db, id: number) {
    const row = await db
      .selectFrom('dns_zone_changes')
      .select(['state', 'outcome'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { state: row.state, outcome: row.outcome ? (JSON.parse(row.outcome) as ZoneChangeOutcome) : null };
  },

  /**
   * Records the word on some of a zone's changes, and clears the zone's mark in the same commit
   * when nothing is left to publish (under the zone's row lock, so that a change committing its
   * entry meanwhile keeps it): a request told "published" finds the zone unmarked.
   */
  async finish(
    db: Db,
    serviceId: number,
    ids: number[],
    state: 'published' | 'refused',
    outcome: ZoneChangeOutcome | null = null,
  ): Promise<void> {
    if (ids.length === 0) return;
    await atomically(db, async (trx) => {
      await dnsRepository.lockZone(trx, serviceId);
      await trx
        .updateTable('dns_zone_changes')
        .set({ state, outcome: outcome && JSON.stringify(outcome) })
        .where('id', 'in', ids)
        .execute();
      const left = await trx
        .selectFrom('dns_zone_changes')
        .select('id')
        .where('service_id', '=', serviceId)
        .where('state', '=', 'pending')
        .limit(1)
        .executeTakeFirst();
      if (!left)
        await trx
          .updateTable('dns_zones')
          .set({ unpublished_since: null })
          .where('service_id', '=', serviceId)
          .execute();
    });
  },

  /** Keeps a change pending with what its last attempt met, or with a sync's new count of checks. */
  async note(db: Db, id: number, change: { outcome?: ZoneChangeOutcome; publish?: ZonePublish }) {
    await db
      .updateTable('dns_zone_changes')
      .set({
        ...(change.outcome ? { outcome: JSON.stringify(change.outcome) } : {}),
        ...(change.publish ? { publish: JSON.stringify(change.publish) } : {}),
      })
      .where('id', '=', id)
      .execute();
  },

  /**
   * Since when the zone has changes to publish (null: none), and what the last failed attempt
   * met, if the oldest of them has one.
   */
  async backlog(db: Db, serviceId: number) {
    const zone = await db
      .selectFrom('dns_zones')
      .select('unpublished_since')
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    if (!zone || zone.unpublished_since === null) return null;
    const noted = await db
      .selectFrom('dns_zone_changes')
      .select('outcome')
      .where('service_id', '=', serviceId)
      .where('state', '=', 'pending')
      .where('outcome', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const outcome = noted?.outcome ? (JSON.parse(noted.outcome) as ZoneChangeOutcome) : null;
    return {
      since: zone.unpublished_since,
      failedAttempt: outcome && 'failedAttempt' in outcome ? outcome.failedAttempt : null,
    };
  },

  /** Forgets what the zone's earlier attempts met, so that the next one's word is waited for. */
  async clearAttempts(db: Db, serviceId: number): Promise<void> {
    await db
      .updateTable('dns_zone_changes')
      .set({ outcome: null })
      .where('service_id', '=', serviceId)
      .where('state', '=', 'pending')
      .execute();
  },

  /** Forgets a zone's finished changes older than `before` (their requests have long had their answer). */
  async forgetFinished(db: Db, serviceId: number, before: number): Promise<void> {
    await db
      .deleteFrom('dns_zone_changes')
      .where('service_id', '=', serviceId)
      .where('state', '<>', 'pending')
      .where('created_at', '<', before)
      .execute();
  },
};
