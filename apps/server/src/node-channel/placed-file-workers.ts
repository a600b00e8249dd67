import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';
import type { FileWorkers, WorkerRequest } from '../drivers/files/confined/protocol.ts';
import { ConflictError } from '../errors.ts';
import { MOVE_STALE_SECONDS } from '../modules/nodes/placement-roles.ts';
import { placementsRepository } from '../modules/nodes/placements.repository.ts';
import type { NodeChannel } from './channel-client.ts';
import type { NodeChannels } from './node-channels.ts';
import { RemoteFileWorkers } from './remote-file-workers.ts';

/** What changes a home: refused while a move makes its final copy (the customer tries again in a moment). */
const WRITES: ReadonlySet<WorkerRequest['op']> = new Set([
  'save',
  'write',
  'mkdir',
  'rename',
  'remove',
  'copyOrMove',
  'chmod',
  'extract',
  'install',
]);

/**
 * The file operations of a panel process, each sent where its home is: the agent of the named
 * server holding the service's web part, or `here` for a service on the unnamed machine (this
 * machine's confined workers, or that machine's agent for an instance apart from it).
 */
export class PlacedFileWorkers implements FileWorkers {
  private readonly remote = new Map<NodeChannel, RemoteFileWorkers>();

  constructor(
    private readonly db: Db,
    private readonly here: FileWorkers,
    private readonly channels: NodeChannels,
    /** This process's PANEL_HOSTING_ROOT, which the homes in requests are made from. */
    private readonly root: string,
    /** Epoch seconds. */
    private readonly now: () => number,
  ) {}

  async holdsHome(domain: string): Promise<boolean> {
    return (await this.workersOf(domain)).holdsHome(domain);
  }

  async call<T>(request: WorkerRequest, input?: () => Readable): Promise<T> {
    const domain = path.basename(request.base);
    const since = this.now() - MOVE_STALE_SECONDS;
    if (WRITES.has(request.op) && (await placementsRepository.homeInCutover(this.db, domain, since)))
      throw new ConflictError('node.error.moving');
    return (await this.workersOf(domain)).call<T>(request, input);
  }

  async stream(request: WorkerRequest): Promise<{ meta: Record<string, unknown>; output: Readable }> {
    return (await this.workersOf(path.basename(request.base))).stream(request);
  }

  async close(): Promise<void> {
    await this.here.close();
    this.channels.close();
  }

  private async workersOf(domain: string): Promise<FileWorkers> {
    const channel = await this.channels.forDomain(domain, 'web');
    if (!channel) return this.here;
    let workers = this.remote.get(channel);
    if (!workers) {
      workers = new RemoteFileWorkers(channel, this.root);
      this.remote.set(channel, workers);
    }
    return workers;
  }
}
