import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Db } from '../../db/database.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { nodesRepository } from './nodes.repository.ts';
import { placementsRepository } from './placements.repository.ts';

export const NODE_ROLES = ['web', 'mail', 'databases', 'dns'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** How often an agent says it is alive, and after how long without a word its server counts as down. */
export const NODE_HEARTBEAT_SECONDS = 15;
export const NODE_DOWN_SECONDS = 60;

export interface NewNode {
  name: string;
  roles: NodeRole[];
  capacity: number;
  host: string;
  channelUrl: string;
  /** Public addresses ('' : none given): the zones of its services point at them. */
  ipv4: string;
  ipv6: string;
}

export interface NodeView extends NewNode {
  state: 'active' | 'draining';
  createdAt: number;
  lastSeenAt: number | null;
  /** Heard from within NODE_DOWN_SECONDS. */
  up: boolean;
  /** Hosting services with a part on it. */
  services: number;
}

function keyHash(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/**
 * The provider's servers as data: each with its roles, capacity, host name and agent's channel,
 * and a key of its own that its agent proves itself with (PANEL_NODE, PANEL_NODE_KEY). The key is
 * 32 random bytes, shown once; only its SHA-256 is kept (a key that long needs no slow hash).
 */
export class NodesService {
  constructor(
    private readonly db: Db,
    /** Epoch seconds. */
    private readonly now: () => number,
  ) {}

  async add(node: NewNode): Promise<{ node: NodeView; key: string }> {
    if (await nodesRepository.byName(this.db, node.name)) throw new ConflictError('node.error.name_taken');
    const key = randomBytes(32).toString('base64url');
    await nodesRepository.insert(
      this.db,
      {
        name: node.name,
        roles: node.roles.join(','),
        capacity: node.capacity,
        host: node.host,
        channel_url: node.channelUrl,
        ipv4: node.ipv4,
        ipv6: node.ipv6,
        key_hash: keyHash(key).toString('hex'),
      },
      this.now(),
    );
    const added = (await this.list()).find((view) => view.name === node.name) as NodeView;
    return { node: added, key };
  }

  async list(): Promise<NodeView[]> {
    const now = this.now();
    const services = await placementsRepository.servicesPerNode(this.db);
    return (await nodesRepository.list(this.db)).map((row) => ({
      name: row.name,
      roles: row.roles.split(',') as NodeRole[],
      capacity: row.capacity,
      host: row.host,
      channelUrl: row.channel_url,
      ipv4: row.ipv4,
      ipv6: row.ipv6,
      state: row.state,
      createdAt: Number(row.created_at),
      lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at),
      up: row.last_seen_at !== null && now - Number(row.last_seen_at) <= NODE_DOWN_SECONDS,
      services: services.get(row.name) ?? 0,
    }));
  }

  /** How many servers have not been heard from within NODE_DOWN_SECONDS (one query: health asks it). */
  async downCount(): Promise<number> {
    return nodesRepository.countSilentSince(this.db, this.now() - NODE_DOWN_SECONDS);
  }

  /** A draining server takes no new service; those it has stay until they are moved. */
  async setState(name: string, state: 'active' | 'draining'): Promise<void> {
    if (!(await nodesRepository.setState(this.db, name, state))) throw new NotFoundError();
  }

  /** Only a server that holds no part of any service (drain it and move them first). */
  async remove(name: string): Promise<void> {
    if (await placementsRepository.anyOn(this.db, name))
      throw new ConflictError('node.error.holds_services', { node: name });
    if (!(await nodesRepository.remove(this.db, name))) throw new NotFoundError();
  }

  /** Whether `key` is this server's (constant time); an unknown server is refused the same way. */
  async authenticate(name: string, key: string): Promise<boolean> {
    const row = await nodesRepository.byName(this.db, name);
    const given = keyHash(key);
    const wanted = row ? Buffer.from(row.key_hash, 'hex') : Buffer.alloc(given.length);
    return timingSafeEqual(given, wanted) && row !== undefined;
  }

  /**
   * The server's PANEL_HOSTING_ROOT, as its agent has it: ProFTPD there finds each FTP login's
   * home under it (ftp_users_view). Only an absolute path of plain characters is taken.
   */
  async reportHostingRoot(name: string, root: string | undefined): Promise<void> {
    if (!root || !path.isAbsolute(root) || !/^[A-Za-z0-9/._-]{1,255}$/.test(root)) return;
    await nodesRepository.reportHostingRoot(this.db, name, path.resolve(root));
  }

  /** The agent's word that its server is up. */
  heartbeat(name: string): Promise<void> {
    return nodesRepository.seen(this.db, name, this.now());
  }
}
