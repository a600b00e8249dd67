import type { Db } from '../../db/database.ts';
import { ConflictError } from '../../errors.ts';
import { nodesRepository } from './nodes.repository.ts';
import { PLACED_ROLES, type PlacedRole, UNNAMED_NODE } from './placement-roles.ts';
import { placementsRepository } from './placements.repository.ts';

/** A named server as a service's customers reach it. */
export interface PlacedServer {
  name: string;
  /** The host name clients connect to (`node add --host`). */
  host: string;
  /** '' when none was given. */
  ipv4: string;
  ipv6: string;
}

/**
 * A hand-off's address (phpMyAdmin, WebMail, WebFTP) for a part on a named server: the same path
 * at that server's host, where its own copy of the tool runs beside the daemon it opens; for a
 * part on the unnamed machine, the address as configured.
 */
export function onServer(url: string, server: PlacedServer | undefined): string {
  if (!server) return url;
  return `https://${server.host}${new URL(url, 'http://panel.invalid').pathname}`;
}

/** The named servers holding a service's parts (a part on the unnamed machine is absent). */
export type PlacedServers = Partial<Record<PlacedRole, PlacedServer>>;

/** Servers the provider chose for some parts of a new service (`resource add --node web=NAME`). */
export type PlacementPins = Partial<Record<PlacedRole, string>>;

interface Candidate {
  name: string;
  roles: string[];
  capacity: number;
  state: 'active' | 'draining';
}

/**
 * The placement policy, documented in docs/OPERATIONS.md: each part goes to an active server of
 * its role with room left (fewer services than its capacity), the least used first (services held
 * over capacity), by name on a tie; a pin names the server instead, which must have the role and
 * be active. A role no server has stays on the server without a name (the control plane's own
 * machine), so a panel with no servers added places nothing and works as one machine.
 *
 * Two services placed at the same moment may both pick the same server: the policy balances, it
 * does not reserve, so a server can end one service over its capacity (the next ones go elsewhere).
 */
export function chooseNode(
  role: PlacedRole,
  nodes: readonly Candidate[],
  used: ReadonlyMap<string, number>,
  pin: string | undefined,
): string {
  const ofRole = nodes.filter((node) => node.roles.includes(role));
  if (pin !== undefined) {
    const pinned = ofRole.find((node) => node.name === pin);
    if (!pinned) throw new ConflictError('node.error.pin_role', { node: pin, role });
    if (pinned.state !== 'active') throw new ConflictError('node.error.pin_draining', { node: pin });
    return pin;
  }
  if (ofRole.length === 0) return UNNAMED_NODE;
  const room = ofRole.filter((node) => node.state === 'active' && (used.get(node.name) ?? 0) < node.capacity);
  const load = (node: Candidate) => (used.get(node.name) ?? 0) / node.capacity;
  const [best] = room.sort((a, b) => load(a) - load(b) || a.name.localeCompare(b.name));
  if (!best) throw new ConflictError('node.error.no_room', { role });
  return best.name;
}

/** Where each part of a hosting service lives, chosen once when the service is made. */
export class PlacementService {
  constructor(
    private readonly db: Db,
    /** Epoch seconds. */
    private readonly now: () => number,
  ) {}

  /**
   * Places every part of a new service that has no server yet and answers the server of each
   * part ('' for the unnamed one). Called in the transaction that makes the service.
   */
  async place(serviceId: number, pins: PlacementPins = {}): Promise<Record<PlacedRole, string>> {
    const placed = new Map(
      (await placementsRepository.ofService(this.db, serviceId)).map((row) => [row.role, row.node]),
    );
    const nodes = (await nodesRepository.list(this.db)).map((row) => ({ ...row, roles: row.roles.split(',') }));
    const used = new Map(await placementsRepository.servicesPerNode(this.db));
    const chosen: { service_id: number; role: PlacedRole; node: string }[] = [];
    const answer = {} as Record<PlacedRole, string>;
    for (const role of PLACED_ROLES) {
      const already = placed.get(role);
      if (already !== undefined) {
        answer[role] = already;
        continue;
      }
      const node = chooseNode(role, nodes, used, pins[role]);
      answer[role] = node;
      if (node === UNNAMED_NODE) continue;
      chosen.push({ service_id: serviceId, role, node });
      // the service counts once on a server, however many of its parts are there
      if (!Object.values(answer).slice(0, -1).includes(node)) used.set(node, (used.get(node) ?? 0) + 1);
    }
    await placementsRepository.insertMissing(this.db, chosen, this.now());
    return answer;
  }

  /** The named servers holding parts of the service (a part on the unnamed one is absent). */
  async placementOf(serviceId: number): Promise<PlacementPins> {
    const rows = await placementsRepository.ofService(this.db, serviceId);
    return Object.fromEntries(rows.map((row) => [row.role, row.node]));
  }

  /** The named servers holding the service's parts, as its customers reach them. */
  async serversOf(serviceId: number): Promise<PlacedServers> {
    const rows = await placementsRepository.serversOf(this.db, serviceId);
    return Object.fromEntries(rows.map(({ role, ...server }) => [role, server]));
  }

  /** Which services have their `role` part on `node` ('' : the unnamed machine), for its sync. */
  holding(role: PlacedRole, node: string): Promise<(serviceId: number) => boolean> {
    return placementsRepository.holding(this.db, role, node);
  }

  /** Services whose `role` part a move is bringing to `node`: its sync keeps what it was given. */
  arriving(role: PlacedRole, node: string): Promise<Set<number>> {
    return placementsRepository.movingTo(this.db, role, node);
  }

  /** The server holding a part of the service ('' : the unnamed one). */
  async nodeOf(serviceId: number, role: PlacedRole): Promise<string> {
    return (await placementsRepository.nodeOf(this.db, serviceId, role))?.node ?? UNNAMED_NODE;
  }
}
