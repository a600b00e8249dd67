import type { Db } from '../db/database.ts';
import { nodesRepository } from '../modules/nodes/nodes.repository.ts';
import { UNNAMED_NODE } from '../modules/nodes/placement-roles.ts';
import { placementsRepository } from '../modules/nodes/placements.repository.ts';
import type { JobEngine, JobHandler, JobState, JobView, NamedKind, SendOptions } from './job-engine.ts';
import type { JobKind } from './job-kind.ts';

/** A kind's queue on a named server: `web.apply-service/web-2` (pg-boss allows `/` in names). */
export function onNode<P>(kind: JobKind<P>, node: string): JobKind<P> {
  return node === UNNAMED_NODE ? kind : { ...kind, name: `${kind.name}/${node}` };
}

/**
 * A kind's queue on one named server, whatever its placement says: sent as it is, never routed
 * again (a kind every server has would otherwise go to the sender's own queue).
 */
export function queueOfServer<P>(kind: JobKind<P>, node: string): JobKind<P> {
  return { ...onNode(kind, node), onServer: undefined };
}

function placed(kind: NamedKind): kind is JobKind<unknown> & { onServer: object | 'each' } {
  return (kind as JobKind<unknown>).onServer !== undefined;
}

/**
 * The work log as placement routes it, for every process of the panel:
 * - a job of a kind placed by service is sent to the queue of the server holding that part of
 *   its service (service_placements), so only that server's agent takes it; a service with no
 *   placement keeps the plain queue, the unnamed machine's;
 * - an agent with a server's name (PANEL_NODE) takes its own queue of the placed kinds and of
 *   those every server has (`each`), and nothing else: the kinds that are not placed (zone
 *   publishing, backups, the mail daemons' certificates, the rounds) stay with the unnamed
 *   machine, the control plane's own, whose agent takes the plain queues;
 * - looking a placed kind's job up finds it on whichever server's queue it is.
 */
export class PlacedJobs implements JobEngine {
  constructor(
    private readonly engine: JobEngine,
    private readonly db: Db,
    /** This process's server ('' : the unnamed machine, or a process that takes no placed work). */
    private readonly here: string = UNNAMED_NODE,
  ) {}

  get name() {
    return this.engine.name;
  }

  get working() {
    return this.engine.working;
  }

  get onError() {
    return this.engine.onError;
  }

  set onError(listener: ((error: unknown) => void) | undefined) {
    this.engine.onError = listener;
  }

  start(options: { workers: boolean }) {
    return this.engine.start(options);
  }

  stop() {
    return this.engine.stop();
  }

  /** This server's own queue of the kind; on a named server, nothing for a kind that is not placed. */
  async work<P>(kind: JobKind<P>, handler: JobHandler<P>, options?: { concurrency?: number }): Promise<void> {
    if (this.here === UNNAMED_NODE) return this.engine.work(kind, handler, options);
    if (!kind.onServer) return;
    return this.engine.work(onNode(kind, this.here), handler, options);
  }

  async send<P>(kind: JobKind<P>, payload: P, options?: SendOptions): Promise<string | null> {
    return this.engine.send(await this.queueOf(kind, payload), payload, options);
  }

  schedule<P>(kind: JobKind<P>, cron: string, payload: P): Promise<void> {
    return this.engine.schedule(this.ownQueue(kind), cron, payload);
  }

  unschedule(kind: NamedKind): Promise<void> {
    return this.engine.unschedule(placed(kind) ? this.ownQueue(kind) : kind);
  }

  async find(kind: NamedKind | undefined, id: string): Promise<JobView | undefined> {
    if (!kind || !placed(kind)) return this.engine.find(kind, id);
    // ids are unique across queues: look in all, keep it if it is one of the kind's
    const job = await this.engine.find(undefined, id);
    return job && (job.kind === kind.name || job.kind.startsWith(`${kind.name}/`)) ? job : undefined;
  }

  async findByKey(kind: NamedKind, key: string, limit = 20): Promise<JobView[]> {
    if (!placed(kind)) return this.engine.findByKey(kind, key, limit);
    const nodes = await nodesRepository.list(this.db);
    const queues = [kind.name, ...nodes.map((node) => `${kind.name}/${node.name}`)];
    const found = (await Promise.all(queues.map((name) => this.engine.findByKey({ name }, key, limit)))).flat();
    return found.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, limit);
  }

  retry(kind: NamedKind, id: string): Promise<boolean> {
    return this.engine.retry(kind, id);
  }

  list(options: { states: readonly JobState[]; kind?: string; limit: number }): Promise<JobView[]> {
    return this.engine.list(options);
  }

  counts() {
    return this.engine.counts();
  }

  /** The queue a job goes to: its service's server for a kind placed by service. */
  private async queueOf<P>(kind: JobKind<P>, payload: P): Promise<JobKind<P>> {
    const routing = kind.onServer;
    if (!routing) return kind;
    if (routing === 'each') return this.ownQueue(kind);
    const node = await placementsRepository.nodeOf(this.db, routing.serviceId(payload), routing.role);
    return onNode(kind, node?.node ?? UNNAMED_NODE);
  }

  private ownQueue<P>(kind: JobKind<P>): JobKind<P> {
    return kind.onServer ? onNode(kind, this.here) : kind;
  }
}
