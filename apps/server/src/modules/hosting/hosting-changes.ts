import type { PermissionKey } from '@panel247/contract/constants';
import type { HostingService as HostingServiceDto } from '@panel247/contract/hosting';
import type { Db } from '../../db/database.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import { ConflictError, DaemonError, FieldErrors } from '../../errors.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { serviceChangeLog } from '../../jobs/service-change-log.repository.ts';
import { changeJobId, type ServiceChangeWord, serviceKey } from '../../jobs/service-change-log.ts';
import { waitForWord } from '../../jobs/work-word.ts';
import type { Actor } from '../auth/actor.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import { hostingRepository } from './hosting.repository.ts';
import { APPLY_WEB } from './web-apply.jobs.ts';
import type { WebApplyWorker, WebChange } from './web-apply-worker.ts';
import type { FolderPreparation, WebModel } from './web-model.ts';
import { webSnapshot } from './web-undo.repository.ts';

export type { FolderPreparation } from './web-model.ts';

/** What `web sync` found of one service: its drift, and whether it was repaired. */
export interface WebDrift {
  serviceId: number;
  /** The domain, or null for a live configuration whose service the panel no longer has. */
  domain: string | null;
  drift: 'missing' | 'changed' | 'extra';
  repaired: boolean;
  /** Why the repair failed: the web server's own message (nginx -t, the reload), for the operator. */
  error?: string;
}

/** Runs one repair; a failure is reported with its reason rather than stopping the others. */
async function repair(work: () => Promise<void>): Promise<Pick<WebDrift, 'repaired' | 'error'>> {
  try {
    await work();
    return { repaired: true };
  } catch (error) {
    const detail = error instanceof DaemonError ? error.detail : '';
    return { repaired: false, error: detail || (error as Error).message };
  }
}

/** What a change touches: the site folders it brings in, and the hosts whose rows it changes (see HostingChanges.change). */
export interface ChangeScope {
  prepare?: FolderPreparation;
  hosts?: readonly string[];
}

/** A hosting service the actor may use, with the permission levels the answers carry. */
export type HostedService = { id: number; domain: string; levels: HostingServiceDto['permissions']; actor?: Actor };

/** A service a change is for; with the actor of a customer's call, which is told when it is still being applied. */
export type ChangedService = { id: number; domain: string; actor?: Actor };

/**
 * How a change reaches the web server: through the work log (`jobs`: the service's job is sent
 * and the call waits `waitMs` for its word), or, in a process that runs no workers (the demo
 * seed, doctor's probes), by running the service's job here once the change is committed.
 */
export type WebDelivery = { jobs: JobSender; waitMs: number } | { inline: true };

/** What the web side tells a customer of a service's changes not yet on the web server. */
export type WebApplying = {
  state: 'pending' | 'failing';
  since: number;
  reason: 'refused' | 'reload' | 'failed' | null;
} | null;

/** Finished changes are forgotten this long after they were made (their calls have long answered). */
const FINISHED_KEPT_SECONDS = 3600;

const FAILURE_REASONS: Record<string, 'refused' | 'reload'> = {
  'web.error.refused': 'refused',
  'web.error.reload': 'reload',
};

/** Driver field names (`sites.0.folder`…) → the form's fields. */
function formField(field: string): string {
  if (/\.folder$/.test(field)) return 'folder';
  if (/\.ssl\./.test(field)) return 'cert';
  if (/\.subdomain$/.test(field)) return 'subDomain';
  if (/\.path$/.test(field)) return 'recurso';
  if (/\.url$/.test(field)) return 'urlRedir';
  if (/\.type$/.test(field)) return 'redirType';
  if (/\.frame\.title$/.test(field)) return 'iframeTitle';
  if (/\.frame\.description$/.test(field)) return 'iframeDescription';
  if (/\.frame\.keywords$/.test(field)) return 'iframeKeywords';
  return field;
}

/**
 * How every service of the web side (overview, site builder, redirections, sites) reads and
 * changes a hosting service. The panel database is the source of truth; every change is one
 * transaction that writes its rows and an entry of the work log saying what it touched and what
 * it replaced (service_changes, area `web`); the service's `web.apply-service` job
 * (WebApplyWorker) brings it to the web server. The call waits a short budget for that: applied
 * (as before: the change is served when the call answers), refused on a field (taken out again:
 * the field error), or not yet (nginx refused the files, a reload failed, the node is away or
 * slow: the change is kept and retried, and the call answers that it is being applied).
 */
export class HostingChanges {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly driver: WebDriver,
    private readonly model: WebModel,
    /** The node's side, bound to the service's job by the composition root (or run here, inline). */
    readonly worker: WebApplyWorker,
    private readonly delivery: WebDelivery,
    private readonly now: () => number,
  ) {}

  /** Whether sites reach a real web server (the demo seed leaves that alone). */
  get live(): boolean {
    return this.driver.live;
  }

  async service(actor: Actor, id: number, key: PermissionKey, need: 'visible' | 'action'): Promise<HostedService> {
    const resource = await this.permissions.authorize(actor, id, key, need);
    return { id, domain: resource.referencePunycode, levels: resource.levels, actor };
  }

  /**
   * The settings row and the main site exist from the first call on (like a DNS zone). Only
   * rows: the web server gets them with the first change. Answers whether this call made them.
   */
  async ensure(db: Db, serviceId: number): Promise<boolean> {
    if (await hostingRepository.settings(db, serviceId)) return false;
    return db.transaction().execute(async (trx) => {
      // Only the call whose row went in adds the main site (a concurrent first call waits, then skips).
      const [inserted] = await hostingRepository.insertSettings(trx, serviceId, this.now());
      if (!inserted || Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await hostingRepository.insertSite(trx, {
        service_id: serviceId,
        subdomain: '',
        folder: '',
        ssl_active: 0,
        cert_pem: '',
        cert_chain_pem: '',
        key_sealed: '',
        eliminable: 0,
        created_at: this.now(),
      });
      return true;
    });
  }

  /**
   * One change: the rows (`work`) and its entry in the work log in one transaction, then the
   * service's job (see the class comment). The settings row is touched first, so on PostgreSQL
   * changes of one service take turns and their entries are in the order they committed.
   * `scope.prepare` names the site folders the change brings in (a new site's, a moved one's):
   * only those are created and checked, so a change costs what it touches rather than a disk
   * check per site of the service (every folder was checked when it came in, and `web sync`
   * checks them all again). A service's first change prepares them all.
   *
   * `scope.hosts` names the subdomains whose sites or redirections the change touches ('' the main
   * domain): only their rows are kept to undo it and only their files rendered, the driver
   * keeping the others as it last applied them; without it, the whole service.
   */
  async change<T>(service: ChangedService, work: (trx: Db) => Promise<T>, scope: ChangeScope = {}): Promise<T> {
    let prepare = scope.prepare ?? 'all';
    if (await this.ensure(this.db, service.id)) prepare = 'all';
    const hosts = scope.hosts && prepare !== 'all' ? [...scope.hosts] : undefined;
    const { value, entry } = await this.db.transaction().execute(async (trx) => {
      await hostingRepository.updateSettings(trx, service.id, { updated_at: this.now() });
      const undo = await webSnapshot(trx, service.id, hosts);
      const value = await work(trx);
      const change: WebChange = { prepare, ...(hosts ? { hosts } : {}) };
      return { value, entry: await serviceChangeLog.append(trx, 'web', service.id, change, undo, this.now()) };
    });
    const word = await this.deliver(service, entry);
    if (word.state === 'refused' && word.outcome && 'refused' in word.outcome) {
      const { fields } = word.outcome.refused;
      // No field of its own: an earlier change of the service was refused, and this one made on it went too.
      if (fields.length === 0) throw new ConflictError('web.error.undone');
      throw new FieldErrors(fields.map((field) => ({ ...field, field: formField(field.field) })));
    }
    const failed = word.state === 'pending' && word.outcome && 'failedAttempt' in word.outcome ? word.outcome : null;
    // Run here (the CLI, a seed, doctor's probes): the one who asked is told the daemon's words;
    // the change stays pending and the panel's round applies it later.
    if (failed && 'inline' in this.delivery)
      throw new DaemonError(failed.failedAttempt.messageKey, failed.failedAttempt.detail);
    if (word.state === 'pending' && service.actor)
      service.actor.pendingWork = {
        jobId: changeJobId(entry),
        failed: word.outcome !== null && 'failedAttempt' in word.outcome,
      };
    return value;
  }

  /** The service's job, sent (or run here), and its word on the entry within the budget. */
  private async deliver(service: ChangedService, entry: number, budgetMs?: number): Promise<ServiceChangeWord> {
    const payload = { serviceId: service.id, domain: service.domain };
    if ('inline' in this.delivery) {
      // A failure is kept with the change (the server's round applies it later), as with the log.
      await this.worker.run(payload).catch(() => undefined);
      return serviceChangeLog.word(this.db, entry);
    }
    // A send that fails (the engine's database away for a moment) is made good by the round of
    // pending changes; nothing to wait for here.
    const sent = await this.delivery.jobs.send(APPLY_WEB, payload).then(
      () => true,
      () => false,
    );
    return waitForWord(
      this.db,
      serviceKey('web', service.id),
      () => serviceChangeLog.word(this.db, entry),
      (word) => word.state !== 'pending' || (word.outcome !== null && 'failedAttempt' in word.outcome),
      sent ? (budgetMs ?? this.delivery.waitMs) : 0,
    );
  }

  /** Whether the service's changes are all on the web server, as the overview shows it. */
  async applying(serviceId: number): Promise<WebApplying> {
    const backlog = await serviceChangeLog.backlog(this.db, 'web', serviceId);
    if (!backlog) return null;
    const { failedAttempt } = backlog;
    if (!failedAttempt) return { state: 'pending', since: backlog.since, reason: null };
    return { state: 'failing', since: backlog.since, reason: FAILURE_REASONS[failedAttempt.messageKey] ?? 'failed' };
  }

  /**
   * The service's job now, not at its next retry (the customer's "try again"): answers whether
   * every change of the service is on the web server within the budget.
   */
  async applyNow(service: ChangedService): Promise<boolean> {
    const newest = await serviceChangeLog.newestPending(this.db, 'web', service.id);
    if (newest === null) return true;
    await serviceChangeLog.clearAttempts(this.db, 'web', service.id);
    const word = await this.deliver(service, newest);
    return word.state !== 'pending' && (await serviceChangeLog.backlog(this.db, 'web', service.id)) === null;
  }

  /**
   * Sends the job of every service with web changes still to apply (the round of pending
   * changes), and forgets the finished ones of services that changed nothing since.
   */
  async reapply(): Promise<number> {
    if ('inline' in this.delivery) return 0;
    await serviceChangeLog.forgetAllFinished(this.db, this.now() - FINISHED_KEPT_SECONDS);
    const services = await serviceChangeLog.servicesWithPending(this.db, 'web');
    for (const service of services) await this.delivery.jobs.send(APPLY_WEB, service);
    return services.length;
  }

  /**
   * Makes the web server serve every hosting service exactly as the database has it: a service
   * with no live configuration (a restore, a switch from the embedded driver, a seed) or another
   * one is applied again; a live configuration of a service the panel no longer has is removed.
   * `dryRun` only reports. One service that cannot be applied does not stop the others.
   */
  async sync(options: { dryRun: boolean }): Promise<WebDrift[]> {
    const report: WebDrift[] = [];
    const services = await hostingRepository.allServices(this.db);
    for (const service of services) {
      if (!options.dryRun) await this.ensure(this.db, service.id);
      const model = await this.model.read(this.db, service, options.dryRun ? [] : 'all');
      const drift = await this.driver.drift(model);
      if (!drift) continue;
      const result = options.dryRun ? { repaired: false } : await repair(() => this.driver.apply(model));
      report.push({ serviceId: service.id, domain: service.domain, drift, ...result });
    }
    const known = new Set(services.map((service) => service.id));
    for (const serviceId of await this.driver.liveServices()) {
      if (known.has(serviceId)) continue;
      const result = options.dryRun ? { repaired: false } : await repair(() => this.driver.remove(serviceId));
      report.push({ serviceId, domain: null, drift: 'extra', ...result });
    }
    return report;
  }

  /** Creates the rows of a service and makes the web server serve them (the demo seed). */
  async provision(service: { id: number; domain: string }): Promise<void> {
    await this.change(service, async () => undefined);
  }
}
