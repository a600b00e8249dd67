import type { DnsCreateParams, DnsListParams, DnsRecord, DnsSaveParams } from '@panel247/contract/dns';
import {
  type DefaultRecord,
  type DefaultRecordTemplate,
  renderDefaultRecords,
} from '@panel247/contract/dns-default-records';
import type {
  DnsChangeActionParams,
  DnsChangeData,
  DnsChangeParams,
  DnsChangeSet,
  DnsHistoryData,
  DnsHistoryParams,
} from '@panel247/contract/dns-history';
import type { DnsImportAxfrParams, DnsImportOptionsData, DnsImportParams } from '@panel247/contract/dns-import';
import {
  canonicalIPv6,
  DNS_IMPORT_MAX_RECORDS,
  DNS_IMPORT_MAX_TEXT,
  type DnsImportConflictChoice,
  type DnsImportMode,
  isHostName,
  isIPv4,
  validateDnsRecord,
} from '@panel247/contract/dns-rules';
import { SECOND_TXT_ERROR, type SingleTxtKind, singleTxtKind } from '@panel247/contract/mail-auth-rules';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import { type DnsDriver, DnsRefusedError, type DsRecord } from '../../drivers/dns/dns.driver.ts';
import { DigZoneTransfer, type ZoneTransfer, ZoneTransferError } from '../../drivers/dns/zone-transfer.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { ConflictError, DaemonError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import { changedFields } from '../activity/activity-summary.ts';
import type { Actor } from '../auth/actor.ts';
import { type AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import { dnsRepository } from './dns.repository.ts';
import { dnsHistoryRepository } from './dns-history.repository.ts';
import {
  type ChangeNote,
  type HistoryRetention,
  historyRecord,
  type RRsetState,
  rowsWith,
  rrsetKey,
  sameRecords,
  toChangeRRset,
  toChangeSet,
  ZoneHistory,
} from './zone-history.ts';
import { type ImportPlan, planImport, readZoneImport } from './zone-import.ts';
import { type Changed, type DriftReport, type Written, ZonePublisher } from './zone-publisher.ts';
import { absoluteName, toBindZone, toRRsets } from './zone-rendering.ts';

export type { Changed, DriftReport } from './zone-publisher.ts';

export interface DnsSettings {
  nameservers: string[];
  defaultTtl: number;
  webIpv4: string;
  webIpv6: string;
  mailIpv4: string;
  webHost: string;
  mailHost: string;
  spfInclude: string;
  dmarcReport: string;
  templates: DefaultRecordTemplate[];
  /** Zone import by AXFR: off, public name servers only, or any address. */
  importAxfr?: 'off' | 'on' | 'any';
  /** How many change sets a zone's history keeps, and for how many days (0: no age limit). */
  history?: HistoryRetention;
}

/** Changes the panel makes itself (a zone's first records, a backup restored, mail's TXT records). */
const BY_PANEL = { userId: null, who: '' };
const by = (actor: Actor) => ({ userId: actor.userId, who: actor.username });

/** The log's words for a record change: its name and type, and its value, TTL and priority before and after. */
function noteRecord(actor: Actor, before: DnsRecordFields | undefined, after: DnsRecordFields | undefined) {
  const record = (after ?? before) as DnsRecordFields;
  const shown = (r: DnsRecordFields | undefined) => r && { value: r.value, ttl: r.ttl, priority: r.priority };
  noteChangeDetail(actor.activity, {
    target: `${record.zona} ${record.type}`,
    changes: changedFields(shown(before), shown(after)),
  });
}

/**
 * A record created or edited, and how many other records of its RRset took its TTL with it (the
 * DNS server serves one TTL per name and type).
 */
export interface RecordChange {
  record: DnsRecord;
  rrsetRetimed: number;
}

type DnsRecordFields = { zona: string; type: string; value: string; ttl: number; priority: number };

/**
 * A record as a backup keeps it: the panel's own form (not a zone file), the same a default
 * record has, so restoring puts back the dynamic values and what may not be deleted.
 */
export type BackedUpRecord = DefaultRecord;

/** A stored record in the panel's own form (the API's, a default record's, a backup's). */
function recordOf(row: DnsRecordRow): DefaultRecord {
  return {
    zona: row.zona,
    type: row.type,
    ttl: row.ttl,
    priority: row.priority,
    value: row.value,
    dynamicValue: row.dynamic_value,
    eliminable: row.eliminable === 1,
  };
}

interface Zone {
  serviceId: number;
  reference: string;
  /** ASCII zone name without the trailing dot. */
  name: string;
}

/**
 * A service's DNS zone: who may read and change it, and what a valid record is. The panel
 * database is the source of truth; `ZonePublisher` brings each change to the DNS server (and
 * says what the user is told when the server refuses, is down or does not answer).
 */
export class DnsService {
  private readonly publisher: ZonePublisher;
  private readonly history: ZoneHistory;

  constructor(
    private readonly db: Db,
    private readonly driver: DnsDriver,
    private readonly permissions: PermissionService,
    private readonly settings: DnsSettings,
    private readonly now: () => number,
    private readonly zoneTransfer: ZoneTransfer = new DigZoneTransfer(),
  ) {
    this.publisher = new ZonePublisher(db, driver, settings, now);
    this.history = new ZoneHistory(settings.history ?? { keep: 500, days: 365 }, now);
  }

  /**
   * One change of a zone, published, and kept in its history in the same transaction (a change
   * the server refuses takes its change set out with its rows). Answers the change set's id too.
   */
  private async changeZone<T>(
    zone: Zone,
    note: ChangeNote,
    write: (trx: Db) => Promise<Written<T>>,
  ): Promise<Changed<T> & { changeSet?: number }> {
    let changeSet: number | undefined;
    const changed = await this.publisher.change(zone, async (trx) => {
      const written = await write(trx);
      changeSet = await this.history.recordWritten(trx, zone.serviceId, note, written);
      return { ...written, undo: { ...written.undo, changeSet } };
    });
    return { ...changed, changeSet };
  }

  private async authorized(actor: Actor, serviceId: number, need: 'visible' | 'action'): Promise<Zone> {
    const resource: AuthorizedResource = await this.permissions.authorize(actor, serviceId, 'service_dnszone', need);
    return { serviceId, reference: resource.reference, name: resource.referencePunycode };
  }

  /**
   * Reads answer from the database and never call the DNS server. A zone still missing (a service
   * created before zones came with their service) is created here as a fallback; if the server
   * cannot take it now, the read still answers, from what the database holds.
   */
  private async zoneToRead(actor: Actor, serviceId: number): Promise<Zone> {
    const zone = await this.authorized(actor, serviceId, 'visible');
    try {
      await this.storeZone(zone);
    } catch (error) {
      if (!(error instanceof DaemonError)) throw error;
    }
    return zone;
  }

  private async zoneToChange(actor: Actor, serviceId: number): Promise<Zone> {
    const zone = await this.authorized(actor, serviceId, 'action');
    await this.publishedZone(zone);
    return zone;
  }

  private toDto(zone: Zone, row: DnsRecordRow): DnsRecord {
    const { zona, ...rest } = recordOf(row);
    return { id: row.id, zona, reference: zone.reference, referencePunycode: zone.name, ...rest };
  }

  /** The provider's default records for the zone, in the canonical form a typed record gets. */
  private defaults(zone: Zone) {
    return renderDefaultRecords(this.settings.templates, { domain: zone.name, ...this.settings }).map((record) => ({
      ...record,
      ...this.validate(zone, record),
    }));
  }

  /**
   * Creates a service's zone when the database has none: the zone row and the provider's default
   * records in the database, the zone (SOA and name servers) and its records on the server.
   * Returns whether it created it.
   */
  private storeZone(zone: Zone): Promise<boolean> {
    return this.publisher.create(zone, async (trx) => {
      for (const record of this.defaults(zone)) {
        await dnsRepository.insert(trx, this.row(zone, record, record.dynamicValue, record.eliminable));
      }
      // The provider's templates may give records of one RRset different TTLs.
      await this.unifyTtls(trx, zone.serviceId);
      await this.history.recordWritten(
        trx,
        zone.serviceId,
        { kind: 'zone', ...BY_PANEL },
        {
          value: undefined,
          publish: { zoneBefore: [] },
          undo: { remove: 'all', restore: [] },
        },
      );
    });
  }

  /** Before a change: the zone in the database, and on the server (cheap once the driver knows it). */
  private async publishedZone(zone: Zone): Promise<void> {
    if (!(await this.storeZone(zone))) await this.driver.ensureZone(zone.name, this.settings.nameservers);
  }

  private row(
    zone: Zone,
    record: { zona: string; type: string; ttl: number; priority: number; value: string },
    dynamicValue = '',
    eliminable = true,
  ) {
    return {
      service_id: zone.serviceId,
      zona: record.zona,
      type: record.type,
      ttl: record.ttl,
      priority: record.priority,
      value: record.value,
      dynamic_value: dynamicValue,
      eliminable,
      created_at: this.now(),
    };
  }

  async list(actor: Actor, params: DnsListParams): Promise<{ dnss: DnsRecord[]; total: number }> {
    const zone = await this.zoneToRead(actor, params.id);
    if (params.page === undefined && !params.type && !params.filter) {
      const rows = await dnsRepository.list(this.db, params.id);
      return { dnss: rows.map((row) => this.toDto(zone, row)), total: rows.length };
    }
    const limit = params.page === undefined ? 100_000 : params.pageSize;
    const { rows, total } = await dnsRepository.page(this.db, params.id, zone, {
      type: params.type,
      filter: params.filter,
      limit,
      offset: ((params.page ?? 1) - 1) * limit,
    });
    return { dnss: rows.map((row) => this.toDto(zone, row)), total };
  }

  async get(actor: Actor, serviceId: number, recordId: number): Promise<DnsRecord> {
    const zone = await this.zoneToRead(actor, serviceId);
    const row = await dnsRepository.find(this.db, serviceId, recordId);
    if (!row) throw new NotFoundError();
    return this.toDto(zone, row);
  }

  private validate(zone: Zone, input: { type: string; zona: string; value: string; ttl: number; priority: number }) {
    const result = validateDnsRecord(input, zone.name);
    if (!result.record) throw new FieldErrors(result.errors);
    return result.record;
  }

  async create(actor: Actor, params: DnsCreateParams): Promise<Changed<RecordChange>> {
    const zone = await this.zoneToChange(actor, params.id);
    const record = this.validate(zone, params);
    return refusalAsFieldError('zona', () =>
      this.changeZone(zone, { kind: 'create', ...by(actor) }, async (trx) => {
        const atName = await dnsRepository.listAt(trx, zone.serviceId, record.zona);
        checkBeside(record, atName);
        const row = await dnsRepository.insert(trx, this.row(zone, record));
        const retimed = await spreadTtl(trx, zone.serviceId, row, atName);
        noteRecord(actor, undefined, row);
        return {
          value: { record: this.toDto(zone, row), rrsetRetimed: retimed.length },
          publish: { touched: [record] },
          undo: { remove: [row.id, ...retimed.map((r) => r.id)], restore: retimed },
        };
      }),
    );
  }

  async save(actor: Actor, params: DnsSaveParams): Promise<Changed<RecordChange>> {
    const zone = await this.zoneToChange(actor, params.id);
    // The edit form has no name field (type and name stay fixed): a name clash goes under the value.
    return refusalAsFieldError('value', () =>
      this.changeZone(zone, { kind: 'edit', ...by(actor) }, async (trx) => {
        // Read under the zone's lock, with its neighbours: also the row to put back if the server refuses.
        const atName = await dnsRepository.listAtNameOf(trx, zone.serviceId, params.dnsZoneId);
        const before = atName.find((row) => row.id === params.dnsZoneId);
        if (!before) throw new NotFoundError();
        const record = this.validate(zone, { ...params, type: before.type, zona: before.zona });
        const others = atName.filter((row) => row.id !== before.id);
        // An SPF (or DMARC) record edited stays the one it was: only a record becoming one counts as a second.
        checkBeside(record, others, singleTxtKind(before.zona, before.value));
        const row = await dnsRepository.update(trx, zone.serviceId, before.id, record);
        const retimed = await spreadTtl(trx, zone.serviceId, row, others);
        noteRecord(actor, before, row);
        return {
          value: { record: this.toDto(zone, row), rrsetRetimed: retimed.length },
          publish: { touched: [record] },
          undo: { remove: [row.id, ...retimed.map((r) => r.id)], restore: [before, ...retimed] },
        };
      }),
    );
  }

  async remove(actor: Actor, serviceId: number, recordId: number): Promise<Changed<void>> {
    const zone = await this.zoneToChange(actor, serviceId);
    return this.changeZone(zone, { kind: 'delete', ...by(actor) }, async (trx) => {
      const before = await dnsRepository.find(trx, serviceId, recordId);
      if (!before) throw new NotFoundError();
      if (before.eliminable !== 1) throw new ForbiddenError('dns.error.not_eliminable');
      await dnsRepository.delete(trx, serviceId, recordId);
      noteRecord(actor, before, undefined);
      return { value: undefined, publish: { touched: [before] }, undo: { remove: [], restore: [before] } };
    });
  }

  /** Back to the provider's defaults: every record goes, the defaults come back. */
  async restore(actor: Actor, serviceId: number): Promise<Changed<{ dnss: DnsRecord[]; total: number }>> {
    const zone = await this.zoneToChange(actor, serviceId);
    const changed = await this.rewrite(zone, { kind: 'defaults', ...by(actor) }, async (trx) => {
      await dnsRepository.deleteAll(trx, serviceId);
      for (const record of this.defaults(zone)) {
        await dnsRepository.insert(trx, this.row(zone, record, record.dynamicValue, record.eliminable));
      }
      await this.unifyTtls(trx, serviceId);
    });
    return { value: await this.listRows(zone), published: changed.published };
  }

  /** Deletes every eliminable record; the provider's name servers stay. */
  async removeAll(actor: Actor, serviceId: number): Promise<Changed<{ dnss: DnsRecord[]; total: number }>> {
    const zone = await this.zoneToChange(actor, serviceId);
    const changed = await this.rewrite(zone, { kind: 'delete_all', ...by(actor) }, (trx) =>
      dnsRepository.deleteEliminable(trx, serviceId),
    );
    return { value: await this.listRows(zone), published: changed.published };
  }

  /** A change of the whole zone: what it had is kept, to publish the removals and to undo it. */
  private rewrite(
    zone: Zone,
    note: ChangeNote,
    change: (trx: Db, before: DnsRecordRow[]) => Promise<void>,
  ): Promise<Changed<void>> {
    return this.changeZone(zone, note, async (trx) => {
      const before = await dnsRepository.list(trx, zone.serviceId);
      await change(trx, before);
      return {
        value: undefined,
        publish: { zoneBefore: toRRsets(before, zone.name, this.settings.defaultTtl) },
        undo: { remove: 'all', restore: before },
      } satisfies Written<void>;
    });
  }

  /**
   * What a zone file would do to the zone (nothing is changed). Needs the right to change the
   * zone: the preview is the first step of a change.
   */
  async importPreview(actor: Actor, params: DnsImportParams): Promise<ImportPlan> {
    const zone = await this.authorized(actor, params.id, 'action');
    const read = this.readImport(zone, params.text);
    return this.planImport(read, await dnsRepository.list(this.db, zone.serviceId), params);
  }

  /**
   * Imports a zone file: read and checked again, planned against the zone as it is under the
   * zone's lease, written in one transaction and published as one whole-zone change (the path
   * restore-defaults and delete-all take), so the server refusing it leaves the zone as it was.
   */
  async importApply(actor: Actor, params: DnsImportParams): Promise<Changed<{ plan: ImportPlan; applied: boolean }>> {
    const zone = await this.zoneToChange(actor, params.id);
    const read = this.readImport(zone, params.text);
    const first = this.planImport(read, await dnsRepository.list(this.db, zone.serviceId), params);
    if (first.added.length + first.changed.length + first.removed.length === 0) {
      return { value: { plan: first, applied: false }, published: true };
    }
    let plan = first;
    const changed = await this.rewrite(zone, { kind: 'import', ...by(actor) }, async (trx, before) => {
      plan = this.planImport(read, before, params);
      await dnsRepository.deleteIds(
        trx,
        zone.serviceId,
        plan.removed.map((row) => row.id),
      );
      for (const { record, before: row } of plan.changed) {
        const { ttl, priority, value } = record;
        // Only its RRset's TTL: the record keeps the value it follows (a restored default's).
        if (value === row.value && priority === row.priority)
          await dnsRepository.setTtl(trx, zone.serviceId, [row.id], ttl);
        else await dnsRepository.update(trx, zone.serviceId, row.id, { ttl, priority, value });
      }
      await dnsRepository.insertMany(
        trx,
        plan.added.map((record) => this.row(zone, record)),
      );
    });
    return { value: { plan, applied: true }, published: changed.published };
  }

  /** What the import offers this zone's user (the right to change the zone is needed). */
  async importOptions(actor: Actor, serviceId: number): Promise<DnsImportOptionsData> {
    await this.authorized(actor, serviceId, 'action');
    const axfr = (this.settings.importAxfr ?? 'off') !== 'off';
    return { axfr, maxText: DNS_IMPORT_MAX_TEXT, maxRecords: DNS_IMPORT_MAX_RECORDS };
  }

  /**
   * The zone as another name server serves it (AXFR), as master-file text, where the provider
   * allows it; nothing is changed (the text is previewed and applied like a pasted file).
   */
  async importAxfr(actor: Actor, params: DnsImportAxfrParams): Promise<string> {
    const zone = await this.authorized(actor, params.id, 'action');
    const setting = this.settings.importAxfr ?? 'off';
    if (setting === 'off') throw new ForbiddenError('dns.import.axfr_off');
    const server = nameServerOf(params.server);
    if (!server) throw FieldErrors.one('server', 'dns.import.axfr_server');
    try {
      return await this.zoneTransfer.read(zone.name, server, {
        allowPrivate: setting === 'any',
        maxBytes: DNS_IMPORT_MAX_TEXT * 4,
      });
    } catch (error) {
      if (!(error instanceof ZoneTransferError)) throw error;
      throw FieldErrors.one('server', `dns.import.axfr_${error.reason}`);
    }
  }

  private readImport(zone: Zone, text: string) {
    const read = readZoneImport(text, zone.name, this.settings.defaultTtl);
    if (read.tooMany) throw FieldErrors.one('text', 'dns.import.too_many');
    return read;
  }

  private planImport(
    read: ReturnType<typeof readZoneImport>,
    existing: DnsRecordRow[],
    choices: { mode: DnsImportMode; conflicts: DnsImportConflictChoice },
  ) {
    const plan = planImport(existing, read.records, choices.mode, this.settings.defaultTtl, choices.conflicts);
    const refused = [...read.refused, ...plan.refused].sort((a, b) => a.line - b.line);
    return { ...plan, refused, kept: read.kept };
  }

  private async listRows(zone: Zone) {
    const dnss = (await dnsRepository.list(this.db, zone.serviceId)).map((row) => this.toDto(zone, row));
    return { dnss, total: dnss.length };
  }

  /** The zone's change sets, newest first, one page at a time (the right to see the zone is enough). */
  async changeSets(actor: Actor, params: DnsHistoryParams): Promise<DnsHistoryData> {
    await this.zoneToRead(actor, params.id);
    const offset = (params.page - 1) * params.pageSize;
    const { rows, total } = await dnsHistoryRepository.page(this.db, params.id, params.pageSize, offset);
    return { changes: rows.map(toChangeSet), total };
  }

  /** One change set and one page of its RRsets, before and after. Another zone's id is unknown here. */
  async changeSet(actor: Actor, params: DnsChangeParams): Promise<DnsChangeData> {
    await this.zoneToRead(actor, params.id);
    const row = await this.changeSetRow(this.db, params.id, params.changeId);
    const offset = (params.page - 1) * params.pageSize;
    const rrsets = await dnsHistoryRepository.rrsetsPage(this.db, row.id, params.pageSize, offset);
    return { change: toChangeSet(row), rrsets: rrsets.map(toChangeRRset), total: row.rrset_count };
  }

  private async changeSetRow(db: Db, serviceId: number, changeId: number) {
    const row = await dnsHistoryRepository.find(db, serviceId, changeId);
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Reverts one change set as a new one: each RRset it touched goes back to what it had before,
   * refused (with which RRset and which later change) when a later change touched one of them.
   */
  async revert(actor: Actor, params: DnsChangeActionParams): Promise<Changed<DnsChangeSet | null>> {
    const zone = await this.zoneToChange(actor, params.id);
    const note: ChangeNote = { kind: 'revert', ...by(actor), refersTo: params.changeId };
    return this.madeChangeSet(
      zone,
      await this.changeZone(zone, note, async (trx) => {
        const row = await this.changeSetRow(trx, zone.serviceId, params.changeId);
        return this.putBack(trx, zone, await this.history.revertState(trx, zone.serviceId, zone.name, row));
      }),
    );
  }

  /** Puts the zone back as it was right after a change set, as a new change set. */
  async restoreAt(actor: Actor, params: DnsChangeActionParams): Promise<Changed<DnsChangeSet | null>> {
    const zone = await this.zoneToChange(actor, params.id);
    const note: ChangeNote = { kind: 'restore_at', ...by(actor), refersTo: params.changeId };
    return this.madeChangeSet(
      zone,
      await this.changeZone(zone, note, async (trx) => {
        await this.changeSetRow(trx, zone.serviceId, params.changeId);
        const then = await this.history.stateAfter(trx, zone.serviceId, params.changeId);
        return this.putBack(trx, zone, [...then.values()]);
      }),
    );
  }

  /** The zone as a BIND master file as it was right after a change set. */
  async exportAt(actor: Actor, params: DnsChangeActionParams): Promise<{ fileName: string; text: string }> {
    const zone = await this.zoneToRead(actor, params.id);
    const row = await this.changeSetRow(this.db, zone.serviceId, params.changeId);
    const then = await this.history.stateAfter(this.db, zone.serviceId, row.id);
    const rows = rowsWith(await dnsRepository.list(this.db, zone.serviceId), then.values(), zone.serviceId);
    const text = toBindZone(rows, zone.name, {
      defaultTtl: this.settings.defaultTtl,
      nameservers: this.settings.nameservers,
      serial: Number(row.created_at),
    });
    return { fileName: `${zone.name}-${row.id}.zone`, text };
  }

  private async madeChangeSet(zone: Zone, changed: Changed<void> & { changeSet?: number }) {
    const row =
      changed.changeSet === undefined
        ? undefined
        : await dnsHistoryRepository.find(this.db, zone.serviceId, changed.changeSet);
    return { value: row ? toChangeSet(row) : null, published: changed.published };
  }

  /**
   * Writes RRsets back to earlier states (those already so are left alone): their rows now go,
   * the earlier records come back with their dynamic values and deletability. A CNAME must still
   * stand alone at its name, which later changes at other types may have broken.
   */
  private async putBack(trx: Db, zone: Zone, wanted: RRsetState[]): Promise<Written<void>> {
    const atWanted = await dnsHistoryRepository.recordsAt(trx, zone.serviceId, [
      ...new Set(wanted.map((state) => state.zona)),
    ]);
    const states = wanted.filter(
      (state) =>
        !sameRecords(atWanted.filter((row) => rrsetKey(row) === rrsetKey(state)).map(historyRecord), state.records),
    );
    const keys = new Set(states.map(rrsetKey));
    const names = [...new Set(states.map((state) => state.zona))];
    const current = atWanted.filter((row) => keys.has(rrsetKey(row)));
    await dnsRepository.deleteIds(
      trx,
      zone.serviceId,
      current.map((row) => row.id),
    );
    const inserted = await dnsRepository.insertReturning(
      trx,
      states.flatMap((state) =>
        state.records.map((r) =>
          this.row(zone, { zona: state.zona, type: state.type, ...r }, r.dynamicValue, r.eliminable),
        ),
      ),
    );
    const atNames = await dnsHistoryRepository.recordsAt(trx, zone.serviceId, names);
    for (const name of names) {
      const here = atNames.filter((row) => row.zona === name);
      if (here.some((row) => row.type === 'CNAME') && here.length > 1) {
        throw new ConflictError('dns.history.conflict_cname', { name: absoluteName(name, zone.name) });
      }
    }
    return {
      value: undefined,
      publish: { touched: states.map(({ zona, type }) => ({ zona, type })) },
      undo: { remove: inserted.map((row) => row.id), restore: current },
    };
  }

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
    await this.publishedZone(zone);
    await this.rewrite(zone, { kind: 'backup', ...BY_PANEL }, async (trx) => {
      await dnsRepository.deleteAll(trx, serviceId);
      for (const record of records) {
        await dnsRepository.insert(trx, this.row(zone, record, record.dynamicValue, record.eliminable));
      }
      // A backup made before an RRset had one TTL in the panel comes back with one.
      await this.unifyTtls(trx, serviceId);
    });
  }

  async exportZone(actor: Actor, serviceId: number): Promise<{ fileName: string; text: string }> {
    const zone = await this.zoneToRead(actor, serviceId);
    const rows = await dnsRepository.list(this.db, serviceId);
    const text = toBindZone(rows, zone.name, {
      defaultTtl: this.settings.defaultTtl,
      nameservers: this.settings.nameservers,
      serial: this.now(),
    });
    return { fileName: `${zone.name}.zone`, text };
  }

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
    if (!this.driver.publishesZones) {
      return zones.map((z) => ({ zone: z.reference_punycode, missing: [], extra: [], changed: [] }));
    }
    const reports: DriftReport[] = [];
    for (const z of zones) {
      const zone = { serviceId: z.service_id, name: z.reference_punycode };
      reports.push(
        await this.publisher.sync(zone, options, (server, wanted) =>
          this.history.recordSync(this.db, zone.serviceId, zone.name, server, wanted),
        ),
      );
    }
    return reports;
  }

  /**
   * Publishes the zones whose last changes the server has not confirmed (run every few seconds,
   * from the server's start); the first run of an instance first gives every RRset one TTL.
   */
  async publishPending(): Promise<DriftReport[]> {
    // Tried again on the next pass when it failed (the database down at start).
    this.normalised ??= this.normaliseRRsetTtls().catch((error) => {
      this.normalised = undefined;
      throw error;
    });
    await this.normalised;
    return this.publisher.publishPending();
  }

  private normalised: Promise<number> | undefined;

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
        changed += await this.unifyTtls(trx, serviceId);
      });
    }
    return changed;
  }

  /** Gives each RRset of a zone the TTL the server serves for it (see `normaliseRRsetTtls`); answers how many records changed. */
  private async unifyTtls(trx: Db, serviceId: number): Promise<number> {
    const effective = (ttl: number) => ttl || this.settings.defaultTtl;
    const sets = new Map<string, DnsRecordRow[]>();
    for (const row of await dnsRepository.list(trx, serviceId)) {
      const key = rrsetKey(row);
      sets.set(key, [...(sets.get(key) ?? []), row]);
    }
    let changed = 0;
    for (const rows of sets.values()) {
      const served = rows.reduce((best, row) =>
        effective(row.ttl) < effective(best.ttl) || (effective(row.ttl) === effective(best.ttl) && row.ttl === 0)
          ? row
          : best,
      ).ttl;
      const others = rows.filter((row) => row.ttl !== served).map((row) => row.id);
      await dnsRepository.setTtl(trx, serviceId, others, served);
      changed += others.length;
    }
    return changed;
  }

  async zoneExists(serviceId: number): Promise<boolean> {
    return Boolean(await dnsRepository.zoneExists(this.db, serviceId));
  }

  /**
   * A service gets its zone when it is created (CLI `resource add`, the demo seed), without an
   * actor. Only the database decides whether it exists, so a server that is down makes this fail
   * only when the zone is new. Returns whether it created the zone.
   */
  async ensureZoneOf(serviceId: number, reference: string, referencePunycode: string): Promise<boolean> {
    return this.storeZone({ serviceId, reference, name: referencePunycode });
  }

  /** Whether the DNS server can sign the zones hosted here (DNSSEC keys). */
  get signsZones(): boolean {
    return this.driver.signsZones;
  }

  /**
   * The DS records of a service's zone, for its domain's registry: the zone is created (and
   * published) first if the service never had it, then signed if it was not yet.
   */
  async dsRecordsOf(serviceId: number, reference: string, referencePunycode: string): Promise<DsRecord[]> {
    const zone = { serviceId, reference, name: referencePunycode };
    await this.publishedZone(zone);
    return this.driver.dsRecords(zone.name);
  }

  /**
   * Rewrites, zone by zone, the records `correct` answers for (a new value, or null: remove it),
   * as one change by the panel each, published like any other; a dry run only lists them. For
   * records made from settings that were placeholders (`panel dns placeholders --fix`).
   */
  async correctRecords(correct: RecordCorrector, options: { dryRun: boolean }): Promise<RecordCorrection[]> {
    const corrections: RecordCorrection[] = [];
    for (const z of await dnsRepository.listZones(this.db)) {
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
      await this.publishedZone(zone);
      await this.rewrite(zone, { kind: 'defaults', ...BY_PANEL }, async (trx, before) => {
        // Planned again under the zone's lock: a change made since is not undone.
        for (const { row, after } of planOf(before)) {
          await dnsRepository.delete(trx, zone.serviceId, row.id);
          if (after !== null) {
            const record = this.validate(zone, { ...row, value: after });
            await dnsRepository.insert(trx, this.row(zone, record, row.dynamic_value, row.eliminable === 1));
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
    await this.publishedZone(zone);
    const record = this.validate(zone, input);
    await this.changeZone(zone, { kind: 'create', ...BY_PANEL }, async (trx) => {
      const atName = await dnsRepository.listAt(trx, zone.serviceId, record.zona);
      checkBeside(record, atName);
      const row = await dnsRepository.insert(trx, this.row(zone, record));
      const retimed = await spreadTtl(trx, zone.serviceId, row, atName);
      return {
        value: undefined,
        publish: { touched: [record] },
        undo: { remove: [row.id, ...retimed.map((r) => r.id)], restore: retimed },
      };
    });
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
    await this.publishedZone(zone);
    const records = values.map((value) => this.validate(zone, { type: 'TXT', zona, value, ttl: 0, priority: 0 }));
    const changed = await this.changeZone(zone, { kind: 'mail', ...BY_PANEL }, async (trx) => {
      const atName = await dnsRepository.listAt(trx, zone.serviceId, zona);
      const before = atName.filter((row) => row.type === 'TXT' && owned(row.value));
      for (const row of before) await dnsRepository.delete(trx, zone.serviceId, row.id);
      const others = atName.filter((row) => !before.includes(row));
      // The records written here join the TXT RRset at its TTL (one per RRset), or the zone's default.
      const ttl = atName.find((row) => row.type === 'TXT')?.ttl ?? 0;
      const added: number[] = [];
      for (const record of records) {
        checkBeside(record, others);
        added.push((await dnsRepository.insert(trx, this.row(zone, { ...record, ttl }))).id);
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

/** What a record should hold now: a new value, null to remove it, undefined to leave it. */
export type RecordCorrector = (record: { type: string; zona: string; value: string }) => string | null | undefined;

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

/** The DNS service as configured (shared by the server, the CLI and the demo seed). */
export function createDnsService(db: Db, config: AppConfig, driver: DnsDriver, now: () => number): DnsService {
  return new DnsService(
    db,
    driver,
    new PermissionService(db),
    {
      nameservers: config.dns.nameservers,
      defaultTtl: config.dns.defaultTtl,
      webIpv4: config.dns.webIpv4,
      webIpv6: config.dns.webIpv6,
      mailIpv4: config.dns.mailIpv4,
      webHost: config.dns.webHost,
      mailHost: config.dns.mailHost,
      spfInclude: config.dns.spfInclude,
      dmarcReport: config.dns.dmarcReport,
      templates: config.dns.defaultRecords,
      importAxfr: config.dns.importAxfr,
      history: { keep: config.dns.historyKeep, days: config.dns.historyDays },
    },
    now,
  );
}

/**
 * A change the DNS server refused (its rows already put back) becomes a field error when
 * the refusal says what was wrong: the name (a record planted on the server clashes with it) or
 * the content. Anything else stays a global error.
 */
async function refusalAsFieldError<T>(nameField: 'zona' | 'value', change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof DnsRefusedError && error.reason === 'name') {
      throw FieldErrors.one(nameField, 'dns.error.refused_name');
    }
    if (error instanceof DnsRefusedError && error.reason === 'content') {
      throw FieldErrors.one('value', 'dns.error.refused');
    }
    throw error;
  }
}

/**
 * A name server as typed: `host`, `host:port`, an IPv4 or IPv6 address, `[IPv6]:port` (53 by
 * default); undefined when it is none of these. What it may reach is the transfer's to check.
 */
export function nameServerOf(typed: string): { host: string; port: number } | undefined {
  const text = typed.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  const withPort = /^([^:]+):(\d{1,5})$/.exec(text);
  const [host, port] = bracketed
    ? [bracketed[1] as string, bracketed[2] ?? '53']
    : withPort
      ? [withPort[1] as string, withPort[2] as string]
      : [text, '53'];
  const bare = host.replace(/\.$/, '');
  const ipv6 = bare.includes(':') && /^[0-9a-f:.]+$/.test(bare) && canonicalIPv6(bare) !== undefined;
  if (!(ipv6 || (!bracketed && (isIPv4(bare) || isHostName(bare))))) return undefined;
  const number = Number(port);
  return number >= 1 && number <= 65535 ? { host: bare, port: number } : undefined;
}

/**
 * The rules between a record and the others at its name: CNAME stands alone; no identical twins;
 * one SPF record per name and one DMARC record at `_dmarc` (receivers fail SPF with two, and
 * ignore DMARC). `was` is the kind the record had before an edit: keeping it adds no second one.
 */
function checkBeside(
  record: { zona: string; type: string; value: string; priority: number },
  others: DnsRecordRow[],
  was?: SingleTxtKind,
) {
  if (record.type === 'CNAME' ? others.length > 0 : others.some((row) => row.type === 'CNAME')) {
    throw FieldErrors.one('zona', 'dns.error.cname_exclusive');
  }
  if (
    others.some((row) => row.type === record.type && row.value === record.value && row.priority === record.priority)
  ) {
    throw FieldErrors.one('value', 'dns.error.duplicate');
  }
  const kind = record.type === 'TXT' ? singleTxtKind(record.zona, record.value) : undefined;
  if (kind && kind !== was && others.some((row) => row.type === 'TXT' && singleTxtKind(row.zona, row.value) === kind)) {
    throw FieldErrors.one('value', SECOND_TXT_ERROR[kind]);
  }
}

/**
 * One TTL per RRset, as the DNS server serves it: the records of `row`'s name and type among
 * `atName` take its TTL. Answers those that changed, as they were (to put back if the server
 * refuses the change).
 */
async function spreadTtl(trx: Db, serviceId: number, row: DnsRecordRow, atName: DnsRecordRow[]) {
  const retimed = atName.filter((other) => other.id !== row.id && other.type === row.type && other.ttl !== row.ttl);
  await dnsRepository.setTtl(
    trx,
    serviceId,
    retimed.map((other) => other.id),
    row.ttl,
  );
  return retimed;
}
