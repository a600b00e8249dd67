import type { Db } from '../db/database.ts';
import { ConflictError, DaemonError, FieldErrors } from '../errors.ts';
import type { Actor } from '../modules/auth/actor.ts';
import { MOVE_STALE_SECONDS, SERVER_ROLE_OF_AREA } from '../modules/nodes/placement-roles.ts';
import { placementsRepository } from '../modules/nodes/placements.repository.ts';
import type { ServiceApplier, ServiceToApply } from './apply-service.jobs.ts';
import type { JobKind } from './job-kind.ts';
import type { JobSender } from './job-sender.ts';
import { serviceChangeLog } from './service-change-log.repository.ts';
import { changeJobId, type ServiceArea, type ServiceChangeWord, serviceKey } from './service-change-log.ts';
import { waitForWord } from './work-word.ts';

/**
 * How a change reaches its server: through the work log (`jobs`: the service's job is sent and
 * the call waits `waitMs` for its word), or, in a process that runs no workers (the demo seed,
 * doctor's probes, the CLI), by running the service's job here once the change is committed.
 */
export type ChangeDelivery = { jobs: JobSender; waitMs: number } | { inline: true };

/** A service a change is for; with the actor of a customer's call, which is told when it is still being applied. */
export type ChangedService = { id: number; domain: string; actor?: Actor };

/**
 * What a customer is told of a service's changes in one area not yet on its server: since when,
 * and once an attempt failed, why (`R`: the area's reasons, named by the daemons' message keys;
 * `failed`: any other).
 */
export type ServiceApplying<R extends string = never> = {
  state: 'pending' | 'failing';
  since: number;
  reason: R | 'failed' | null;
} | null;

/**
 * What a "try again" call answers: the area's "all applied" (`appliedKey`), or that its changes
 * are still being applied (and whether the last attempt failed).
 */
export function applyNowInfo(applied: boolean, applying: { state: string } | null, appliedKey: string): string {
  if (applied) return appliedKey;
  return applying?.state === 'failing' ? 'work.failed_retrying' : 'work.being_applied';
}

/** Finished changes are forgotten this long after they were made (their calls have long answered). */
const FINISHED_KEPT_SECONDS = 3600;

/**
 * The request side of one area's changes (see ServiceChangeWorker for the node's side): each
 * change is written with its entry of the work log in one transaction by the area's service,
 * then `settle` sends the service's job and waits a short budget for its word. Applied: the call
 * answers as before. Refused on a field: the field error (the area names its form's fields). Not
 * yet (a daemon refused, the node is away or slow): the change is kept and retried, and the call
 * answers that it is being applied.
 */
export class ServiceChanges {
  private readonly area: ServiceArea;

  constructor(
    private readonly db: Db,
    private readonly job: JobKind<ServiceToApply>,
    /** The node's side, run here when the delivery is inline. */
    private readonly worker: ServiceApplier & { area: ServiceArea },
    private readonly delivery: ChangeDelivery,
    private readonly now: () => number,
    private readonly messages: {
      /** A later change that went with a refused one (409). */
      undone: string;
      /** The node's field names → the form's. */
      formField?: (field: string) => string;
    },
  ) {
    this.area = worker.area;
  }

  /**
   * One change: the service's turn, its rows (`work`, which says what it replaced) and its entry
   * in the work log in one transaction; then its job, and the call's answer (`settle`). `change`
   * may be made from what `work` wrote (a new row's id).
   */
  async make<T, C, U>(
    service: ChangedService,
    change: C | ((value: T) => C),
    work: (trx: Db) => Promise<{ value: T; undo: U | null }>,
  ): Promise<T> {
    const { value, entry } = await this.db.transaction().execute(async (trx) => {
      await serviceChangeLog.takeTurn(trx, service.id);
      // a move's final copy of the part this area lives on is being made: its changes wait
      const role = SERVER_ROLE_OF_AREA[this.area];
      if (await placementsRepository.inCutover(trx, service.id, role, this.now() - MOVE_STALE_SECONDS))
        throw new ConflictError('node.error.moving');
      const { value, undo } = await work(trx);
      const entryChange = typeof change === 'function' ? (change as (value: T) => C)(value) : change;
      return {
        value,
        entry: await serviceChangeLog.append(trx, this.area, service.id, entryChange, undo, this.now()),
      };
    });
    await this.settle(service, entry);
    return value;
  }

  /** After the change's commit: its job, and the call's answer from the word on its entry. */
  async settle(service: ChangedService, entry: number): Promise<void> {
    const word = await this.deliver(service, entry);
    if (word.state === 'refused' && word.outcome && 'refused' in word.outcome) {
      const { fields } = word.outcome.refused;
      // No field of its own: an earlier change of the service was refused, and this one made on it went too.
      if (fields.length === 0) throw new ConflictError(this.messages.undone);
      const formField = this.messages.formField ?? ((field: string) => field);
      throw new FieldErrors(fields.map((field) => ({ ...field, field: formField(field.field) })));
    }
    const failed = word.state === 'pending' && word.outcome && 'failedAttempt' in word.outcome ? word.outcome : null;
    // Run here (the CLI, a seed, doctor's probes): the one who asked is told the daemon's words;
    // the change stays pending and the panel's round applies it later.
    if (failed && 'inline' in this.delivery)
      throw new DaemonError(failed.failedAttempt.messageKey, failed.failedAttempt.detail);
    if (word.state === 'pending' && service.actor)
      service.actor.pendingWork = { jobId: changeJobId(entry), failed: failed !== null };
  }

  /** The service's job, sent (or run here), and its word on the entry within the budget. */
  private async deliver(service: ChangedService, entry: number): Promise<ServiceChangeWord> {
    const payload = { serviceId: service.id, domain: service.domain };
    if ('inline' in this.delivery) {
      // A failure is kept with the change (the server's round applies it later), as with the log.
      await this.worker.run(payload).catch(() => undefined);
      return serviceChangeLog.word(this.db, entry);
    }
    // A send that fails (the engine's database away for a moment) is made good by the round of
    // pending changes; nothing to wait for here.
    const sent = await this.delivery.jobs.send(this.job, payload).then(
      () => true,
      () => false,
    );
    return waitForWord(
      this.db,
      serviceKey(this.area, service.id),
      () => serviceChangeLog.word(this.db, entry),
      (word) => word.state !== 'pending' || (word.outcome !== null && 'failedAttempt' in word.outcome),
      sent ? this.delivery.waitMs : 0,
    );
  }

  /** Whether the service's changes of the area are all on its server; `reasons`: message key → the area's reason. */
  async applying<R extends string = never>(
    serviceId: number,
    reasons: Readonly<Record<string, R>> = {},
  ): Promise<ServiceApplying<R>> {
    const backlog = await serviceChangeLog.backlog(this.db, this.area, serviceId);
    if (!backlog) return null;
    const { failedAttempt } = backlog;
    return failedAttempt
      ? { state: 'failing', since: backlog.since, reason: reasons[failedAttempt.messageKey] ?? 'failed' }
      : { state: 'pending', since: backlog.since, reason: null };
  }

  /**
   * The service's job now, not at its next retry (the customer's "try again"): answers whether
   * every change of the service in the area is on its server within the budget.
   */
  async applyNow(service: ChangedService): Promise<boolean> {
    const newest = await serviceChangeLog.newestPending(this.db, this.area, service.id);
    if (newest === null) return true;
    await serviceChangeLog.clearAttempts(this.db, this.area, service.id);
    const word = await this.deliver(service, newest);
    return word.state !== 'pending' && (await serviceChangeLog.backlog(this.db, this.area, service.id)) === null;
  }

  /**
   * Sends the job of every service with changes of the area still to apply (the round of
   * pending changes), and forgets the finished ones of services that changed nothing since.
   */
  async reapply(): Promise<number> {
    if ('inline' in this.delivery) return 0;
    await serviceChangeLog.forgetAllFinished(this.db, this.now() - FINISHED_KEPT_SECONDS);
    const services = await serviceChangeLog.servicesWithPending(this.db, this.area);
    for (const service of services) await this.delivery.jobs.send(this.job, service);
    return services.length;
  }
}
