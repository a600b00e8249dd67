import type { DnsChangeKind, DnsChangeRRset, DnsChangeSet, DnsHistoryRecord } from '@panel247/contract/dns-history';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import type { RRset } from '../../drivers/dns/dns.driver.ts';
import { ConflictError } from '../../errors.ts';
import { dnsRepository } from './dns.repository.ts';
import { type ChangeRRsetRow, type ChangeSetRow, dnsHistoryRepository } from './dns-history.repository.ts';
import type { Written } from './zone-publisher.ts';
import { absoluteName } from './zone-rendering.ts';

/** Who made a change and what kind it was (`userId` null: the panel itself, `who` then ''). */
export interface ChangeNote {
  kind: DnsChangeKind;
  userId: number | null;
  who: string;
  refersTo?: number;
}

/** How much history a zone keeps: its newest `keep` change sets, none older than `days` (0: no age limit). */
export interface HistoryRetention {
  keep: number;
  days: number;
}

/** An RRset's records at some point: what a revert or a restore puts back. */
export interface RRsetState {
  zona: string;
  type: string;
  records: DnsHistoryRecord[];
}

const keyOf = (rrset: { zona: string; type: string }) => `${rrset.type} ${rrset.zona}`;

export function historyRecord(row: DnsRecordRow): DnsHistoryRecord {
  return {
    ttl: row.ttl,
    priority: row.priority,
    value: row.value,
    dynamicValue: row.dynamic_value,
    eliminable: row.eliminable === 1,
  };
}

/** Two lists of one RRset's records hold the same records (order aside). */
export function sameRecords(a: DnsHistoryRecord[], b: DnsHistoryRecord[]): boolean {
  const canonical = (list: DnsHistoryRecord[]) =>
    list
      .map((r) => JSON.stringify([r.ttl, r.priority, r.value, r.dynamicValue, r.eliminable]))
      .sort()
      .join('\n');
  return a.length === b.length && canonical(a) === canonical(b);
}

function byRRset(rows: DnsRecordRow[]): Map<string, RRsetState> {
  const sets = new Map<string, RRsetState>();
  for (const row of rows) {
    const key = keyOf(row);
    const set = sets.get(key) ?? { zona: row.zona, type: row.type, records: [] };
    set.records.push(historyRecord(row));
    sets.set(key, set);
  }
  return sets;
}

/** The RRsets whose records differ between two lists of rows, with their records before and after. */
export function changedRRsets(before: DnsRecordRow[], after: DnsRecordRow[]): DnsChangeRRset[] {
  const was = byRRset(before);
  const is = byRRset(after);
  const changed: DnsChangeRRset[] = [];
  for (const key of new Set([...was.keys(), ...is.keys()])) {
    const old = was.get(key);
    const now = is.get(key);
    const rrset = (old ?? now) as RRsetState;
    if (!sameRecords(old?.records ?? [], now?.records ?? [])) {
      changed.push({ zona: rrset.zona, type: rrset.type, before: old?.records ?? [], after: now?.records ?? [] });
    }
  }
  return changed;
}

export function toChangeSet(row: ChangeSetRow): DnsChangeSet {
  return {
    id: row.id,
    at: Number(row.created_at),
    who: row.who,
    kind: row.kind as DnsChangeKind,
    refersTo: row.refers_to,
    rrsets: row.rrset_count,
  };
}

export function toChangeRRset(row: ChangeRRsetRow): DnsChangeRRset {
  return {
    zona: row.zona,
    type: row.type,
    before: JSON.parse(row.before) as DnsHistoryRecord[],
    after: JSON.parse(row.after) as DnsHistoryRecord[],
  };
}

/**
 * A zone's history: every change kept as a change set with the records of the RRsets it touched
 * before and after, written in the change's own transaction (a change and its record commit or
 * fail together), so a change costs what it touches. The zone at any earlier point is the zone now
 * with each RRset changed since put back as the first later change set found it.
 */
export class ZoneHistory {
  constructor(
    private readonly retention: HistoryRetention,
    private readonly now: () => number,
  ) {}

  /** Keeps a change set (none when nothing differs) and prunes past the retention; answers its id. */
  async record(trx: Db, serviceId: number, note: ChangeNote, rrsets: DnsChangeRRset[]): Promise<number | undefined> {
    if (rrsets.length === 0) return undefined;
    const now = this.now();
    const id = await dnsHistoryRepository.insertChangeSet(trx, {
      service_id: serviceId,
      created_at: now,
      user_id: note.userId,
      who: note.who,
      kind: note.kind,
      refers_to: note.refersTo ?? null,
      rrset_count: rrsets.length,
    });
    await dnsHistoryRepository.insertRRsets(
      trx,
      rrsets.map((set) => ({
        change_set_id: id,
        zona: set.zona,
        type: set.type,
        before: JSON.stringify(set.before),
        after: JSON.stringify(set.after),
      })),
    );
    const { keep, days } = this.retention;
    await dnsHistoryRepository.prune(trx, serviceId, keep, days > 0 ? now - days * 86_400 : null);
    return id;
  }

  /**
   * Records what one change wrote, from what it says to publish and to undo: for RRsets it
   * touched, their rows now and (those it removed taken out, those it would restore put back)
   * before; for a whole-zone rewrite, the zone before and now.
   */
  async recordWritten(trx: Db, serviceId: number, note: ChangeNote, written: Written<unknown>) {
    const { publish, undo } = written;
    if (!('touched' in publish) || undo.remove === 'all') {
      const after = await dnsRepository.list(trx, serviceId);
      return this.record(trx, serviceId, note, changedRRsets(undo.restore, after));
    }
    const touched = new Set(publish.touched.map(keyOf));
    const names = [...new Set(publish.touched.map((t) => t.zona))];
    const after = (await dnsHistoryRepository.recordsAt(trx, serviceId, names)).filter((row) =>
      touched.has(keyOf(row)),
    );
    const removed = new Set(undo.remove);
    const before = [
      ...after.filter((row) => !removed.has(row.id)),
      ...undo.restore.filter((row) => touched.has(keyOf(row))),
    ];
    return this.record(trx, serviceId, note, changedRRsets(before, after));
  }

  /** A sync rewrote the server's RRsets that differed: kept in the server's own form (the records did not change). */
  recordSync(db: Db, serviceId: number, zone: string, server: RRset[], wanted: RRset[]) {
    const relative = (name: string) => (name === `${zone}.` ? '' : name.slice(0, -(zone.length + 2)));
    const state = (sets: RRset[]) =>
      new Map(
        sets.map((set) => [
          keyOf({ zona: relative(set.name), type: set.type }),
          set.contents.map((value) => ({ ttl: set.ttl, priority: 0, value, dynamicValue: '', eliminable: true })),
        ]),
      );
    const was = state(server);
    const is = state(wanted);
    const rrsets: DnsChangeRRset[] = [];
    for (const set of [...wanted, ...server]) {
      const zona = relative(set.name);
      const key = keyOf({ zona, type: set.type });
      const before = was.get(key) ?? [];
      const after = is.get(key) ?? [];
      if (!sameRecords(before, after) && !rrsets.some((r) => keyOf(r) === key)) {
        rrsets.push({ zona, type: set.type, before, after });
      }
    }
    return this.record(db, serviceId, { kind: 'sync', userId: null, who: '' }, rrsets);
  }

  /**
   * The RRsets changed since change set `id`, as they were right after it (from the first later
   * change set that touched each). The other RRsets are as they were then.
   */
  async stateAfter(db: Db, serviceId: number, id: number): Promise<Map<string, RRsetState>> {
    const state = new Map<string, RRsetState>();
    for (const row of await dnsHistoryRepository.rrsetsAfter(db, serviceId, id)) {
      const key = keyOf(row);
      if (!state.has(key)) {
        state.set(key, { zona: row.zona, type: row.type, records: JSON.parse(row.before) as DnsHistoryRecord[] });
      }
    }
    return state;
  }

  /**
   * What reverting change set `changeSet` puts back: each RRset it touched as it was before. Refused
   * when an RRset no longer holds what the change left (a later change touched it): which one and
   * which change, so the user knows what to revert first.
   */
  async revertState(db: Db, serviceId: number, zone: string, changeSet: ChangeSetRow): Promise<RRsetState[]> {
    if (changeSet.kind === 'sync') throw new ConflictError('dns.history.sync_not_revertible');
    // Its "before" is no zone at all, not even the provider's name servers.
    if (changeSet.kind === 'zone') throw new ConflictError('dns.history.zone_not_revertible');
    const rrsets = (await dnsHistoryRepository.rrsetsOf(db, changeSet.id)).map(toChangeRRset);
    const now = byRRset(
      await dnsHistoryRepository.recordsAt(
        db,
        serviceId,
        rrsets.map((set) => set.zona),
      ),
    );
    for (const set of rrsets) {
      if (sameRecords(now.get(keyOf(set))?.records ?? [], set.after)) continue;
      const later = await dnsHistoryRepository.lastTouching(db, serviceId, changeSet.id, set);
      const rrset = `${absoluteName(set.zona, zone)} ${set.type}`;
      if (!later) throw new ConflictError('dns.history.conflict_unknown', { rrset });
      throw new ConflictError('dns.history.conflict', { rrset, change: later.id });
    }
    return rrsets.map((set) => ({ zona: set.zona, type: set.type, records: set.before }));
  }
}

/** The zone's rows with some RRsets replaced by other states (the zone at an earlier point). */
export function rowsWith(rows: DnsRecordRow[], states: Iterable<RRsetState>, serviceId: number): DnsRecordRow[] {
  const replaced = new Map([...states].map((state) => [keyOf(state), state]));
  const kept = rows.filter((row) => !replaced.has(keyOf(row)));
  const past = [...replaced.values()].flatMap((state) =>
    state.records.map((record, i) => ({
      id: -1 - i,
      service_id: serviceId,
      zona: state.zona,
      type: state.type,
      ttl: record.ttl,
      priority: record.priority,
      value: record.value,
      dynamic_value: record.dynamicValue,
      eliminable: record.eliminable ? 1 : 0,
      created_at: 0,
    })),
  );
  const order = (a: DnsRecordRow, b: DnsRecordRow) =>
    a.zona < b.zona ? -1 : a.zona > b.zona ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
  return [...kept, ...past].sort(order);
}

export { keyOf as rrsetKey };
