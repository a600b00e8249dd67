import type { DnsCreateParams, DnsListData, DnsListParams, DnsRecord, DnsSaveParams } from '@panel247/contract/dns';
import { singleTxtKind } from '@panel247/contract/mail-auth-rules';
import type { Db } from '../../db/database.ts';
import { DnsRefusedError } from '../../drivers/dns/dns.driver.ts';
import { FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import { changedFields } from '../activity/activity-summary.ts';
import type { Actor } from '../auth/actor.ts';
import { dnsRepository } from './dns.repository.ts';
import { by, type ZoneChanges } from './zone-changes.ts';
import type { Changed } from './zone-publisher.ts';
import { checkBeside, spreadTtl, unifyTtls } from './zone-record-rules.ts';
import { toBindZone } from './zone-rendering.ts';

/**
 * A record created or edited, and how many other records of its RRset took its TTL with it (the
 * DNS server serves one TTL per name and type).
 */
export interface RecordChange {
  record: DnsRecord;
  rrsetRetimed: number;
}

type DnsRecordFields = { zona: string; type: string; value: string; ttl: number; priority: number };

/** The log's words for a record change: its name and type, and its value, TTL and priority before and after. */
function noteRecord(actor: Actor, before: DnsRecordFields | undefined, after: DnsRecordFields | undefined) {
  const record = (after ?? before) as DnsRecordFields;
  const shown = (r: DnsRecordFields | undefined) => r && { value: r.value, ttl: r.ttl, priority: r.priority };
  noteChangeDetail(actor.activity, {
    target: `${record.zona} ${record.type}`,
    changes: changedFields(shown(before), shown(after)),
  });
}

/** A zone's records as its user sees and changes them: one at a time, back to the defaults, all at once, as a file. */
export class DnsRecordService {
  constructor(
    private readonly db: Db,
    private readonly changes: ZoneChanges,
    private readonly now: () => number,
  ) {}

  async list(actor: Actor, params: DnsListParams): Promise<DnsListData> {
    const zone = await this.changes.zoneToRead(actor, params.id);
    const publishing = await this.changes.publisher.publishing(params.id);
    if (params.page === undefined && !params.type && !params.filter) {
      const rows = await dnsRepository.list(this.db, params.id);
      return { dnss: rows.map((row) => this.changes.toDto(zone, row)), total: rows.length, publishing };
    }
    const limit = params.page === undefined ? 100_000 : params.pageSize;
    const { rows, total } = await dnsRepository.page(this.db, params.id, zone, {
      type: params.type,
      filter: params.filter,
      limit,
      offset: ((params.page ?? 1) - 1) * limit,
    });
    return { dnss: rows.map((row) => this.changes.toDto(zone, row)), total, publishing };
  }

  /** The user's "try again": the zone's changes to the DNS server now. Answers whether all landed. */
  async publishNow(actor: Actor, serviceId: number): Promise<boolean> {
    const zone = await this.changes.authorized(actor, serviceId, 'action');
    return this.changes.publisher.publishNow(zone);
  }

  async get(actor: Actor, serviceId: number, recordId: number): Promise<DnsRecord> {
    const zone = await this.changes.zoneToRead(actor, serviceId);
    const row = await dnsRepository.find(this.db, serviceId, recordId);
    if (!row) throw new NotFoundError();
    return this.changes.toDto(zone, row);
  }

  async create(actor: Actor, params: DnsCreateParams): Promise<Changed<RecordChange>> {
    const zone = await this.changes.zoneToChange(actor, params.id);
    const record = this.changes.validate(zone, params);
    return refusalAsFieldError('zona', () =>
      this.changes.changeZone(zone, { kind: 'create', ...by(actor) }, (trx) =>
        this.changes.insertRecord(trx, zone, record, (row, retimed) => {
          noteRecord(actor, undefined, row);
          return { record: this.changes.toDto(zone, row), rrsetRetimed: retimed.length };
        }),
      ),
    );
  }

  async save(actor: Actor, params: DnsSaveParams): Promise<Changed<RecordChange>> {
    const zone = await this.changes.zoneToChange(actor, params.id);
    // The edit form has no name field (type and name stay fixed): a name clash goes under the value.
    return refusalAsFieldError('value', () =>
      this.changes.changeZone(zone, { kind: 'edit', ...by(actor) }, async (trx) => {
        // Read under the zone's lock, with its neighbours: also the row to put back if the server refuses.
        const atName = await dnsRepository.listAtNameOf(trx, zone.serviceId, params.dnsZoneId);
        const before = atName.find((row) => row.id === params.dnsZoneId);
        if (!before) throw new NotFoundError();
        const record = this.changes.validate(zone, { ...params, type: before.type, zona: before.zona });
        const others = atName.filter((row) => row.id !== before.id);
        // An SPF (or DMARC) record edited stays the one it was: only a record becoming one counts as a second.
        checkBeside(record, others, singleTxtKind(before.zona, before.value));
        const row = await dnsRepository.update(trx, zone.serviceId, before.id, record);
        const retimed = await spreadTtl(trx, zone.serviceId, row, others);
        noteRecord(actor, before, row);
        return {
          value: { record: this.changes.toDto(zone, row), rrsetRetimed: retimed.length },
          publish: { touched: [record] },
          undo: { remove: [row.id, ...retimed.map((r) => r.id)], restore: [before, ...retimed] },
        };
      }),
    );
  }

  async remove(actor: Actor, serviceId: number, recordId: number): Promise<Changed<void>> {
    const zone = await this.changes.zoneToChange(actor, serviceId);
    return this.changes.changeZone(zone, { kind: 'delete', ...by(actor) }, async (trx) => {
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
    const zone = await this.changes.zoneToChange(actor, serviceId);
    const defaults = await this.changes.defaults(zone);
    const changed = await this.changes.rewrite(zone, { kind: 'defaults', ...by(actor) }, async (trx) => {
      await dnsRepository.deleteAll(trx, serviceId);
      for (const record of defaults) {
        await dnsRepository.insert(trx, this.changes.row(zone, record, record.dynamicValue, record.eliminable));
      }
      await unifyTtls(trx, serviceId, this.changes.settings.defaultTtl);
    });
    return { value: await this.changes.listRows(zone), published: changed.published };
  }

  /** Deletes every eliminable record; the provider's name servers stay. */
  async removeAll(actor: Actor, serviceId: number): Promise<Changed<{ dnss: DnsRecord[]; total: number }>> {
    const zone = await this.changes.zoneToChange(actor, serviceId);
    const changed = await this.changes.rewrite(zone, { kind: 'delete_all', ...by(actor) }, (trx) =>
      dnsRepository.deleteEliminable(trx, serviceId),
    );
    return { value: await this.changes.listRows(zone), published: changed.published };
  }

  async exportZone(actor: Actor, serviceId: number): Promise<{ fileName: string; text: string }> {
    const zone = await this.changes.zoneToRead(actor, serviceId);
    const rows = await dnsRepository.list(this.db, serviceId);
    const text = toBindZone(rows, zone.name, {
      defaultTtl: this.changes.settings.defaultTtl,
      nameservers: this.changes.settings.nameservers,
      serial: this.now(),
    });
    return { fileName: `${zone.name}.zone`, text };
  }
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
