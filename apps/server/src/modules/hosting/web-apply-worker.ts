import { atomically, type Db } from '../../db/database.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import { hostsToRender } from '../../drivers/web/web-render.ts';
import { DaemonError, FieldErrors } from '../../errors.ts';
import { serviceChangeLog } from '../../jobs/service-change-log.repository.ts';
import type { ServiceChangeEntry } from '../../jobs/service-change-log.ts';
import { serviceKey } from '../../jobs/service-change-log.ts';
import { signalWork } from '../../jobs/work-word.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { WebServiceToApply } from './web-apply.jobs.ts';
import type { FolderPreparation, WebModel } from './web-model.ts';
import { restoreWebSnapshot, type WebUndo } from './web-undo.repository.ts';

/** What one web change touched: the folders it brings in, and the hosts whose rows it changed. */
export interface WebChange {
  prepare: FolderPreparation;
  /** The subdomains ('' the main domain) whose sites or redirections it changed; absent: the whole service. */
  hosts?: string[];
}

export type WebChangeEntry = ServiceChangeEntry<WebChange, WebUndo>;

/** How long finished changes are kept for the requests waiting on them. */
const KEEP_FINISHED_SECONDS = 600;

/**
 * What a hosting service's `web.apply-service` job does: its pending web changes to the web
 * server, in the order they were made. One job per service runs at a time (the work log's key),
 * so the changes of one service never overtake each other, on any instance.
 *
 * - Each change gives the driver what it touched as the database holds it then (the touched
 *   hosts where the driver can take them alone, else the whole service). Applying the database's
 *   state twice changes nothing, so a step retried after a crash between "applied" and
 *   "recorded" is harmless.
 * - The node refuses one on a field (a folder that is a link, a value its renderer refuses): it,
 *   and every later change of the service still pending (made on top of it), are taken out of
 *   the database again, newest first, their requests told why, and the whole service applied
 *   again as the database then has it.
 * - Anything else (nginx -t or PHP-FPM refuse the files, a reload fails, the node is away): the
 *   changes stay pending, their requests are told the reason, and the job fails, to be retried
 *   with backoff. Only this service waits: another service's job runs on.
 */
export class WebApplyWorker {
  constructor(
    private readonly db: Db,
    private readonly driver: WebDriver,
    private readonly model: WebModel,
    private readonly now: () => number,
    /** Told when the service's changes moved on (the realtime channel), once a run had any. */
    private readonly landed?: WorkLanded,
  ) {}

  async run(service: WebServiceToApply): Promise<void> {
    const moved = { any: false };
    try {
      await this.applyPending({ id: service.serviceId, domain: service.domain }, moved);
    } finally {
      signalWork(this.db, serviceKey('web', service.serviceId));
      // The word is recorded; a browser that misses it reads it on its next visit.
      if (moved.any) await this.landed?.('web', service.serviceId).catch(() => undefined);
    }
  }

  private async applyPending(service: { id: number; domain: string }, moved: { any: boolean }): Promise<void> {
    const entries = await serviceChangeLog.pending<WebChange, WebUndo>(this.db, 'web', service.id);
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
            : { messageKey: 'web.error.apply', detail: (error as Error).message };
        const left = entries.slice(index).map((pending) => pending.id);
        await serviceChangeLog.noteAttempt(this.db, left, { failedAttempt: failure });
        throw error;
      }
      await serviceChangeLog.finish(this.db, [entry.id], 'applied');
    }
    await serviceChangeLog.forgetFinished(this.db, 'web', service.id, this.now() - KEEP_FINISHED_SECONDS);
  }

  /** Gives the driver the change: the touched hosts where it can take them, else the whole service. */
  private async apply(service: { id: number; domain: string }, change: WebChange): Promise<void> {
    // A change that prepares every folder is a service's first: the driver has no hosts to keep yet.
    if (change.hosts && change.prepare !== 'all') {
      const touched = hostsToRender(change.hosts);
      const model = await this.model.read(this.db, service, change.prepare, touched);
      if (await this.driver.applyHosts({ ...model, hosts: touched })) return;
    }
    await this.driver.apply(await this.model.read(this.db, service, change.prepare));
  }

  /** The refused change and every later one of the service leave the database, newest first. */
  private async refuse(serviceId: number, fromId: number, error: FieldErrors): Promise<void> {
    await atomically(this.db, async (trx) => {
      // The settings row is every change's lock (HostingChanges.change): no change commits meanwhile.
      await hostingRepository.updateSettings(trx, serviceId, { updated_at: this.now() });
      const undone = await serviceChangeLog.pending<WebChange, WebUndo>(trx, 'web', serviceId, fromId);
      for (const entry of [...undone].reverse())
        if (entry.undo) await restoreWebSnapshot(trx, serviceId, entry.undo, this.now());
      // The refused change's call gets the field; a later one's, that it went with it.
      const [refused, ...later] = undone.map((entry) => entry.id);
      if (refused !== undefined)
        await serviceChangeLog.finish(trx, [refused], 'refused', { refused: { fields: error.fields } });
      await serviceChangeLog.finish(trx, later, 'refused', { refused: { fields: [] } });
      // An earlier change, applied as the database held its hosts then, may have carried rows
      // that are now taken out: the whole service is applied again.
      await serviceChangeLog.append<WebChange, WebUndo>(trx, 'web', serviceId, { prepare: [] }, null, this.now());
    });
  }
}
