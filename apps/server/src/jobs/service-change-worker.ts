import { atomically, type Db } from '../db/database.ts';
import { DaemonError, FieldErrors } from '../errors.ts';
import type { WorkLanded } from '../modules/realtime/work-events.ts';
import type { ServiceToApply } from './apply-service.jobs.ts';
import { serviceChangeLog } from './service-change-log.repository.ts';
import { type ServiceArea, type ServiceChangeEntry, serviceKey } from './service-change-log.ts';
import { signalWork } from './work-word.ts';

/** How long finished changes are kept for the requests waiting on them. */
const KEEP_FINISHED_SECONDS = 600;

export type ServiceRef = { id: number; domain: string };

/**
 * What a service's `<area>.apply-service` job does: its pending changes of the area to its
 * server, in the order they were made. One job per service runs at a time (the work log's key),
 * so the changes of one service never overtake each other, on any instance. Each area says how
 * a change is applied and how one is taken out again; the order, the refusals and the failures
 * are the same for all:
 *
 * - A change is applied as the database holds what it touched at that moment. Applying the
 *   database's state twice changes nothing, so a step retried after a crash between "applied"
 *   and "recorded" is harmless.
 * - The node refuses one on a field (a folder that is a link, a value its renderer refuses): it,
 *   and every later change of the service still pending (made on top of it), are taken out of
 *   the database again, newest first, their requests told why, and the whole service applied
 *   again as the database then has it.
 * - Anything else (a daemon refuses the files, a reload fails, the node is away): the changes
 *   stay pending, their requests are told the reason, and the job fails, to be retried with
 *   backoff. Only this service waits: another service's job runs on.
 */
export abstract class ServiceChangeWorker<C, U> {
  constructor(
    protected readonly db: Db,
    readonly area: ServiceArea,
    protected readonly now: () => number,
    /** Told when the service's changes moved on (the realtime channel), once a run had any. */
    private readonly landed?: WorkLanded,
  ) {}

  /** Applies one change on the node; a FieldErrors refuses it, anything else is retried. */
  protected abstract apply(service: ServiceRef, change: C): Promise<void>;
  /** Puts back in the database what one change replaced. */
  protected abstract restore(trx: Db, serviceId: number, undo: U): Promise<void>;
  /** The change that applies the whole service again, as the database holds it. */
  protected abstract whole(): C;
  /** The message of a failure that is no daemon's own. */
  protected abstract readonly failureKey: string;

  async run(service: ServiceToApply): Promise<void> {
    const moved = { any: false };
    try {
      await this.applyPending({ id: service.serviceId, domain: service.domain }, moved);
    } finally {
      signalWork(this.db, serviceKey(this.area, service.serviceId));
      // The word is recorded; a browser that misses it reads it on its next visit.
      if (moved.any) await this.landed?.(this.area, service.serviceId).catch(() => undefined);
    }
  }

  private async applyPending(service: ServiceRef, moved: { any: boolean }): Promise<void> {
    const entries = await serviceChangeLog.pending<C, U>(this.db, this.area, service.id);
    if (entries.length > 0) moved.any = true;
    for (const [index, entry] of entries.entries()) {
      try {
        await this.apply(service, entry.change);
      } catch (error) {
        if (error instanceof FieldErrors) {
          await this.refuse(service.id, entry.id, error);
          // What is left is the whole service, put back as the database now has it.
          return this.applyPending(service, moved);
        }
        const failure =
          error instanceof DaemonError
            ? { messageKey: error.messageKey, detail: error.detail }
            : { messageKey: this.failureKey, detail: (error as Error).message };
        const left = entries.slice(index).map((pending) => pending.id);
        await serviceChangeLog.noteAttempt(this.db, left, { failedAttempt: failure });
        throw error;
      }
      await serviceChangeLog.finish(this.db, [entry.id], 'applied');
    }
    await serviceChangeLog.forgetFinished(this.db, this.area, service.id, this.now() - KEEP_FINISHED_SECONDS);
  }

  /** The refused change and every later one of the service leave the database, newest first. */
  private async refuse(serviceId: number, fromId: number, error: FieldErrors): Promise<void> {
    await atomically(this.db, async (trx) => {
      // The service's turn (see serviceChangeLog.takeTurn): no change of it commits meanwhile.
      await serviceChangeLog.takeTurn(trx, serviceId);
      const undone: ServiceChangeEntry<C, U>[] = await serviceChangeLog.pending<C, U>(
        trx,
        this.area,
        serviceId,
        fromId,
      );
      for (const entry of [...undone].reverse()) if (entry.undo) await this.restore(trx, serviceId, entry.undo);
      // The refused change's call gets the field; a later one's, that it went with it.
      const [refused, ...later] = undone.map((entry) => entry.id);
      if (refused !== undefined)
        await serviceChangeLog.finish(trx, [refused], 'refused', { refused: { fields: error.fields } });
      await serviceChangeLog.finish(trx, later, 'refused', { refused: { fields: [] } });
      // An earlier change, applied as the database held it then, may have carried rows that are
      // now taken out: the whole service is applied again.
      await serviceChangeLog.append<C, U>(trx, this.area, serviceId, this.whole(), null, this.now());
    });
  }
}
