import type { Db } from '../../db/database.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { NotFoundError } from '../../errors.ts';
import { dnsRepository } from './dns.repository.ts';
import type { ZoneChanges } from './zone-changes.ts';
import type { DriftReport } from './zone-publisher.ts';
import { unifyTtls } from './zone-record-rules.ts';

/** The DNS server brought back to what the database holds: `dns sync`, and the zones still to publish. */
export class DnsSyncService {
  private normalised: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly changes: ZoneChanges,
  ) {}

  /**
   * Rewrites the server from the database, zone by zone (a dry run only compares), and reports what differed before
   * (records missing on the server, extra there, or with other contents or TTL).
   */
  async sync(only: string | undefined, options: SyncOptions): Promise<DriftReport[]> {
    if (!options.dryRun) await this.normaliseRRsetTtls();
    const zones = (await dnsRepository.listZones(this.db)).filter(
      (z) => !only || z.reference === only || z.reference_punycode === only,
    );
    if (only && zones.length === 0) throw new NotFoundError();
    // The embedded driver has no server: the database is all there is, so nothing can drift.
    if (!this.changes.driver.publishesZones) {
      return zones.map((z) => ({ zone: z.reference_punycode, missing: [], extra: [], changed: [] }));
    }
    const reports: DriftReport[] = [];
    for (const z of zones) {
      const zone = { serviceId: z.service_id, name: z.reference_punycode };
      reports.push(await this.changes.publisher.sync(zone, options));
    }
    return reports;
  }

  /**
   * Sends the job of every zone with changes still to publish (the republish round); the first
   * round of an instance first gives every RRset one TTL. Answers how many zones it sent.
   */
  async republish(): Promise<number> {
    // Tried again on the next round when it failed (the database down at start).
    this.normalised ??= this.normaliseRRsetTtls().catch((error) => {
      this.normalised = undefined;
      throw error;
    });
    await this.normalised;
    return this.changes.publisher.republish();
  }

  /** What a zone's `dns.publish-zone` job runs. */
  publishZone(zone: { serviceId: number; name: string }): Promise<void> {
    return this.changes.publishing.run(zone);
  }

  /**
   * One TTL per RRset in the panel's model, for records stored before it held (each record kept
   * its own TTL, while the DNS server serves one per RRset). Each RRset keeps the TTL the server
   * has been serving for it: the zone publisher sends an RRset's smallest effective TTL (0 being
   * the zone's default, `toRRsets`), so that stored value becomes every record's, and the zone
   * as served does not change (a stored 0 wins a tie with the default written out, so the RRset
   * still follows the default). Done per zone under its lock, so a change made at the same time
   * is not overwritten; idempotent, so instances starting together may both run it. Answers how
   * many records changed.
   */
  async normaliseRRsetTtls(): Promise<number> {
    let changed = 0;
    for (const serviceId of await dnsRepository.zonesWithSplitTtls(this.db)) {
      await this.db.transaction().execute(async (trx) => {
        await dnsRepository.lockZone(trx, serviceId);
        changed += await unifyTtls(trx, serviceId, this.changes.settings.defaultTtl);
      });
    }
    return changed;
  }
}
