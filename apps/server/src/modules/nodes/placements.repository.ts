import type { Db } from '../../db/database.ts';
import { type PlacedRole, UNNAMED_NODE } from './placement-roles.ts';

/** The `service_placements` rows (migration 0036): which server holds each part of a service. */
export const placementsRepository = {
  nodeOf(db: Db, serviceId: number, role: PlacedRole) {
    return db
      .selectFrom('service_placements')
      .select('node')
      .where('service_id', '=', serviceId)
      .where('role', '=', role)
      .executeTakeFirst();
  },

  ofService(db: Db, serviceId: number) {
    return db.selectFrom('service_placements').select(['role', 'node']).where('service_id', '=', serviceId).execute();
  },

  /** The named servers holding parts of the service, with their host names and addresses. */
  serversOf(db: Db, serviceId: number) {
    return db
      .selectFrom('service_placements as p')
      .innerJoin('nodes as n', 'n.name', 'p.node')
      .select(['p.role', 'n.name', 'n.host', 'n.ipv4', 'n.ipv6'])
      .where('p.service_id', '=', serviceId)
      .execute();
  },

  /** Services with a part on each server (a service with two parts on one server counts once). */
  async servicesPerNode(db: Db): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('service_placements')
      .select(['node', (eb) => eb.fn.count<number>('service_id').distinct().as('services')])
      .groupBy('node')
      .execute();
    return new Map(rows.map((row) => [row.node, Number(row.services)]));
  },

  async insertMissing(
    db: Db,
    rows: { service_id: number; role: PlacedRole; node: string }[],
    now: number,
  ): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('service_placements')
      .values(rows.map((row) => ({ ...row, placed_at: now })))
      .onConflict((conflict) => conflict.columns(['service_id', 'role']).doNothing())
      .execute();
  },

  /**
   * Which services have their `role` part on `node` ('' : on no named server, the unnamed
   * machine's): a test over service ids, for a server's sync, which touches only what it holds.
   */
  async holding(db: Db, role: PlacedRole, node: string): Promise<(serviceId: number) => boolean> {
    const rows = await db
      .selectFrom('service_placements')
      .select(['service_id', 'node'])
      .where('role', '=', role)
      .execute();
    if (node === UNNAMED_NODE) {
      const elsewhere = new Set(rows.map((row) => row.service_id));
      return (serviceId) => !elsewhere.has(serviceId);
    }
    const here = new Set(rows.filter((row) => row.node === node).map((row) => row.service_id));
    return (serviceId) => here.has(serviceId);
  },

  /** Services whose `role` part is on its way to `node` (a move's target keeps what it was given). */
  async movingTo(db: Db, role: PlacedRole, node: string): Promise<Set<number>> {
    const rows = await db
      .selectFrom('service_moves')
      .select('service_id')
      .where('role', '=', role)
      .where('to_node', '=', node)
      .execute();
    return new Set(rows.map((row) => row.service_id));
  },

  /** The node channel of the named server holding the service's part (undefined: the unnamed machine). */
  async channelUrlOf(db: Db, serviceId: number, role: PlacedRole): Promise<string | undefined> {
    const row = await db
      .selectFrom('service_placements as p')
      .innerJoin('nodes as n', 'n.name', 'p.node')
      .select('n.channel_url')
      .where('p.service_id', '=', serviceId)
      .where('p.role', '=', role)
      .executeTakeFirst();
    return row?.channel_url;
  },

  /** The service a domain names (its home's name, its mailboxes' domain). */
  async serviceOfDomain(db: Db, domain: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('resources')
      .select('id')
      .where('reference_punycode', '=', domain)
      .executeTakeFirst();
    return row?.id;
  },

  /** The service a database belongs to. */
  async serviceOfDatabase(db: Db, name: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('hosted_databases')
      .select('service_id')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.service_id;
  },

  /** Puts the part on `node` ('' : the unnamed machine, which has no row). */
  async setNode(db: Db, serviceId: number, role: PlacedRole, node: string, now: number): Promise<void> {
    await db.deleteFrom('service_placements').where('service_id', '=', serviceId).where('role', '=', role).execute();
    if (node !== UNNAMED_NODE)
      await db.insertInto('service_placements').values({ service_id: serviceId, role, node, placed_at: now }).execute();
  },

  /** Whether the service's part is in a move's final copy (its changes wait), one started after `since`. */
  async inCutover(db: Db, serviceId: number, role: PlacedRole, since: number): Promise<boolean> {
    const row = await db
      .selectFrom('service_moves')
      .select('service_id')
      .where('service_id', '=', serviceId)
      .where('role', '=', role)
      .where('state', '=', 'cutover')
      .where('started_at', '>=', since)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Whether the home of the service named by its domain is in a move's final copy. */
  async homeInCutover(db: Db, domain: string, since: number): Promise<boolean> {
    const row = await db
      .selectFrom('service_moves as m')
      .innerJoin('resources as r', 'r.id', 'm.service_id')
      .select('m.service_id')
      .where('r.reference_punycode', '=', domain)
      .where('m.role', '=', 'web')
      .where('m.state', '=', 'cutover')
      .where('m.started_at', '>=', since)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Starts a move; false when the service already has one on its way. */
  async startMove(
    db: Db,
    move: { service_id: number; role: PlacedRole; from_node: string; to_node: string },
    now: number,
    /** A move started before this was abandoned (its process died): it no longer holds the service. */
    staleBefore: number,
  ): Promise<boolean> {
    await db
      .deleteFrom('service_moves')
      .where('service_id', '=', move.service_id)
      .where('started_at', '<', staleBefore)
      .execute();
    const inserted = await db
      .insertInto('service_moves')
      .values({ ...move, state: 'copying', started_at: now })
      .onConflict((conflict) => conflict.column('service_id').doNothing())
      .returning('service_id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  async setMoveState(db: Db, serviceId: number, state: 'copying' | 'cutover'): Promise<void> {
    await db.updateTable('service_moves').set({ state }).where('service_id', '=', serviceId).execute();
  },

  async endMove(db: Db, serviceId: number): Promise<void> {
    await db.deleteFrom('service_moves').where('service_id', '=', serviceId).execute();
  },

  /** Every part a server holds, by service. */
  async onNode(db: Db, node: string): Promise<{ service_id: number; role: PlacedRole }[]> {
    const rows = await db
      .selectFrom('service_placements')
      .select(['service_id', 'role'])
      .where('node', '=', node)
      .orderBy('service_id')
      .orderBy('role')
      .execute();
    return rows as { service_id: number; role: PlacedRole }[];
  },
  async anyOn(db: Db, node: string): Promise<boolean> {
    const row = await db
      .selectFrom('service_placements')
      .select('service_id')
      .where('node', '=', node)
      .executeTakeFirst();
    return row !== undefined;
  },
};
