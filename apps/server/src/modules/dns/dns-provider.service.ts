import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import type { DsRecord } from '../../drivers/dns/dns.driver.ts';
import { dnsRepository } from './dns.repository.ts';
import { BY_PANEL, type Zone, type ZoneChanges } from './zone-changes.ts';
import { checkBeside } from './zone-record-rules.ts';

/** What a record should hold now: a new value, null to remove it, undefined to leave it. */
/** The new value of a record (null: remove it; undefined: leave it); `dynamic_value` is the template it was made from ('' : typed). */
export type RecordCorrector = (record: {
  type: string;
  zona: string;
  value: string;
  dynamic_value: string;
}) => string | null | undefined;

/** One record `correctRecords` changed (or would change): `after` null when it was removed. */
export interface RecordCorrection {
  zone: string;
  zona: string;
  type: string;
  before: string;
  after: string | null;
}

function correctionOf(zone: Zone, row: DnsRecordRow, after: string | null): RecordCorrection {
  return { zone: zone.name, zona: row.zona, type: row.type, before: row.value, after };
}

/**
 * What the provider's side of the panel does to zones, without an actor (its caller authorized
 * it, or there is no one): a service's zone created, its DS records, records corrected or added
 * by the panel, another area's TXT records.
 */
export class DnsProviderService {
  constructor(
    private readonly db: Db,
    private readonly changes: ZoneChanges,
  ) {}

  async zoneExists(serviceId: number): Promise<boolean> {
    return Boolean(await dnsRepository.zoneExists(this.db, serviceId));
  }

  /**
   * A service gets its zone when it is created (CLI `resource add`, the demo seed), without an
   * actor. Only the database decides whether it exists, so a server that is down makes this fail
   * only when the zone is new. Returns whether it created the zone.
   */
  async ensureZoneOf(serviceId: number, reference: string, referencePunycode: string): Promise<boolean> {
    return this.changes.storeZone({ serviceId, reference, name: referencePunycode });
  }

  /** Whether the DNS server can sign the zones hosted here (DNSSEC keys). */
  get signsZones(): boolean {
    return this.changes.driver.signsZones;
  }

  /**
   * The DS records of a service's zone, for its domain's registry: the zone is created (and
   * published) first if the service never had it, then signed if it was not yet.
   */
  async dsRecordsOf(serviceId: number, reference: string, referencePunycode: string): Promise<DsRecord[]> {
    const zone = { serviceId, reference, name: referencePunycode };
    await this.changes.storeZone(zone);
    return this.changes.driver.dsRecords(zone.name);
  }

  /**
   * Rewrites, zone by zone, the records `correct` answers for (a new value, or null: remove it),
   * as one change by the panel each, published like any other; a dry run only lists them. For
   * records made from settings that were placeholders (`panel dns placeholders --fix`).
   */
  async correctRecords(
    correct: RecordCorrector,
    options: { dryRun: boolean; serviceId?: number },
  ): Promise<RecordCorrection[]> {
    const corrections: RecordCorrection[] = [];
    for (const z of await dnsRepository.listZones(this.db)) {
      if (options.serviceId !== undefined && z.service_id !== options.serviceId) continue;
      const zone = { serviceId: z.service_id, reference: z.reference, name: z.reference_punycode };
      const planOf = (rows: DnsRecordRow[]) =>
        rows.flatMap((row) => {
          const after = correct(row);
          return after === undefined || after === row.value ? [] : [{ row, after }];
        });
      const planned = planOf(await dnsRepository.list(this.db, zone.serviceId));
      if (planned.length === 0) continue;
      if (options.dryRun) {
        corrections.push(...planned.map(({ row, after }) => correctionOf(zone, row, after)));
        continue;
      }
      await this.changes.storeZone(zone);
      await this.changes.rewrite(zone, { kind: 'defaults', ...BY_PANEL }, async (trx, before) => {
        // Planned again under the zone's lock: a change made since is not undone.
        for (const { row, after } of planOf(before)) {
          await dnsRepository.delete(trx, zone.serviceId, row.id);
          if (after !== null) {
            const record = this.changes.validate(zone, { ...row, value: after });
            await dnsRepository.insert(trx, this.changes.row(zone, record, row.dynamic_value, row.eliminable === 1));
          }
          corrections.push(correctionOf(zone, row, after));
        }
      });
    }
    return corrections;
  }

  /** Adds a record without an actor (demo seed); same validation as the API. */
  async addRecord(
    serviceId: number,
    reference: string,
    referencePunycode: string,
    input: { type: string; zona: string; value: string; ttl: number; priority: number },
  ): Promise<void> {
    const zone = { serviceId, reference, name: referencePunycode };
    await this.changes.storeZone(zone);
    const record = this.changes.validate(zone, input);
    await this.changes.changeZone(zone, { kind: 'create', ...BY_PANEL }, (trx) =>
      this.changes.insertRecord(trx, zone, record, () => undefined),
    );
  }

  /**
   * TXT records another area keeps in a hosted zone (mail's DKIM keys, SPF and DMARC), without an
   * actor (its caller authorized the change): at one name, the records `owned` recognises are
   * replaced by `values` (none: removed), each checked like a typed record, as one change.
   * Answers `hosted: false` and writes nothing when the service has no zone here.
   */
  async replaceOwnedTxt(
    service: { serviceId: number; reference: string; referencePunycode: string },
    zona: string,
    owned: (value: string) => boolean,
    values: string[],
  ): Promise<{ hosted: boolean; published: boolean }> {
    if (!(await dnsRepository.zoneExists(this.db, service.serviceId))) return { hosted: false, published: false };
    const zone = { serviceId: service.serviceId, reference: service.reference, name: service.referencePunycode };
    await this.changes.storeZone(zone);
    const records = values.map((value) =>
      this.changes.validate(zone, { type: 'TXT', zona, value, ttl: 0, priority: 0 }),
    );
    const changed = await this.changes.changeZone(zone, { kind: 'mail', ...BY_PANEL }, async (trx) => {
      const atName = await dnsRepository.listAt(trx, zone.serviceId, zona);
      const before = atName.filter((row) => row.type === 'TXT' && owned(row.value));
      for (const row of before) await dnsRepository.delete(trx, zone.serviceId, row.id);
      const others = atName.filter((row) => !before.includes(row));
      // The records written here join the TXT RRset at its TTL (one per RRset), or the zone's default.
      const ttl = atName.find((row) => row.type === 'TXT')?.ttl ?? 0;
      const added: number[] = [];
      for (const record of records) {
        checkBeside(record, others);
        added.push((await dnsRepository.insert(trx, this.changes.row(zone, { ...record, ttl }))).id);
      }
      return {
        value: undefined,
        publish: { touched: [{ zona, type: 'TXT' }] },
        undo: { remove: added, restore: before },
      };
    });
    return { hosted: true, published: changed.published };
  }
}
