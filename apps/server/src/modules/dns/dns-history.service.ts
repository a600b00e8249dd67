import type {
  DnsChangeActionParams,
  DnsChangeData,
  DnsChangeParams,
  DnsChangeSet,
  DnsHistoryData,
  DnsHistoryParams,
} from '@panel247/contract/dns-history';
import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { dnsRepository } from './dns.repository.ts';
import { dnsHistoryRepository } from './dns-history.repository.ts';
import { by, type Zone, type ZoneChanges } from './zone-changes.ts';
import {
  type ChangeNote,
  historyRecord,
  type RRsetState,
  rowsWith,
  rrsetKey,
  sameRecords,
  toChangeRRset,
  toChangeSet,
} from './zone-history.ts';
import type { Changed, Written } from './zone-publisher.ts';
import { absoluteName, toBindZone } from './zone-rendering.ts';

/** A zone's history as its user sees it: the change sets, one reverted, the zone put back or exported as it was then. */
export class DnsHistoryService {
  constructor(
    private readonly db: Db,
    private readonly changes: ZoneChanges,
  ) {}

  /** The zone's change sets, newest first, one page at a time (the right to see the zone is enough). */
  async changeSets(actor: Actor, params: DnsHistoryParams): Promise<DnsHistoryData> {
    await this.changes.zoneToRead(actor, params.id);
    const offset = (params.page - 1) * params.pageSize;
    const { rows, total } = await dnsHistoryRepository.page(this.db, params.id, params.pageSize, offset);
    return { changes: rows.map(toChangeSet), total };
  }

  /** One change set and one page of its RRsets, before and after. Another zone's id is unknown here. */
  async changeSet(actor: Actor, params: DnsChangeParams): Promise<DnsChangeData> {
    await this.changes.zoneToRead(actor, params.id);
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
    const zone = await this.changes.zoneToChange(actor, params.id);
    const note: ChangeNote = { kind: 'revert', ...by(actor), refersTo: params.changeId };
    return this.madeChangeSet(
      zone,
      await this.changes.changeZone(zone, note, async (trx) => {
        const row = await this.changeSetRow(trx, zone.serviceId, params.changeId);
        return this.putBack(trx, zone, await this.changes.history.revertState(trx, zone.serviceId, zone.name, row));
      }),
    );
  }

  /** Puts the zone back as it was right after a change set, as a new change set. */
  async restoreAt(actor: Actor, params: DnsChangeActionParams): Promise<Changed<DnsChangeSet | null>> {
    const zone = await this.changes.zoneToChange(actor, params.id);
    const note: ChangeNote = { kind: 'restore_at', ...by(actor), refersTo: params.changeId };
    return this.madeChangeSet(
      zone,
      await this.changes.changeZone(zone, note, async (trx) => {
        await this.changeSetRow(trx, zone.serviceId, params.changeId);
        const then = await this.changes.history.stateAfter(trx, zone.serviceId, params.changeId);
        return this.putBack(trx, zone, [...then.values()]);
      }),
    );
  }

  /** The zone as a BIND master file as it was right after a change set. */
  async exportAt(actor: Actor, params: DnsChangeActionParams): Promise<{ fileName: string; text: string }> {
    const zone = await this.changes.zoneToRead(actor, params.id);
    const row = await this.changeSetRow(this.db, zone.serviceId, params.changeId);
    const then = await this.changes.history.stateAfter(this.db, zone.serviceId, row.id);
    const rows = rowsWith(await dnsRepository.list(this.db, zone.serviceId), then.values(), zone.serviceId);
    const text = toBindZone(rows, zone.name, {
      defaultTtl: this.changes.settings.defaultTtl,
      nameservers: this.changes.settings.nameservers,
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
          this.changes.row(zone, { zona: state.zona, type: state.type, ...r }, r.dynamicValue, r.eliminable),
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
}
