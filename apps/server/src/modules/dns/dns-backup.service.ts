import type { DefaultRecord } from '@panel247/contract/dns-default-records';
import type { Db } from '../../db/database.ts';
import { NotFoundError } from '../../errors.ts';
import { dnsRepository } from './dns.repository.ts';
import { BY_PANEL, recordOf, type ZoneChanges } from './zone-changes.ts';
import { unifyTtls } from './zone-record-rules.ts';

/**
 * A record as a backup keeps it: the panel's own form (not a zone file), the same a default
 * record has, so restoring puts back the dynamic values and what may not be deleted.
 */
export type BackedUpRecord = DefaultRecord;

/** A service's zone for the backups: its records to keep, and those records put back (by the provider, no actor). */
export class DnsBackupService {
  constructor(
    private readonly db: Db,
    private readonly changes: ZoneChanges,
  ) {}

  /** The zone of a service as its records, for a backup (the provider's, no actor); none without a zone. */
  async recordsForBackup(serviceId: number): Promise<BackedUpRecord[] | undefined> {
    if (!(await dnsRepository.zoneExists(this.db, serviceId))) return undefined;
    return (await dnsRepository.list(this.db, serviceId)).map(recordOf);
  }

  /**
   * Puts a backed-up zone back as one change (one transaction, one publication): every record
   * replaced by the backup's.
   */
  async restoreFromBackup(serviceId: number, records: BackedUpRecord[]): Promise<void> {
    const known = (await dnsRepository.listZones(this.db)).find((zone) => zone.service_id === serviceId);
    if (!known) throw new NotFoundError();
    const zone = { serviceId, reference: known.reference, name: known.reference_punycode };
    await this.changes.storeZone(zone);
    await this.changes.rewrite(zone, { kind: 'backup', ...BY_PANEL }, async (trx) => {
      await dnsRepository.deleteAll(trx, serviceId);
      for (const record of records) {
        await dnsRepository.insert(trx, this.changes.row(zone, record, record.dynamicValue, record.eliminable));
      }
      // A backup made before an RRset had one TTL in the panel comes back with one.
      await unifyTtls(trx, serviceId, this.changes.settings.defaultTtl);
    });
  }
}
