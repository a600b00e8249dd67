import type { PermissionKey } from '@panel247/contract/constants';
import type { HostingService as HostingServiceDto } from '@panel247/contract/hosting';
import type { Db } from '../../db/database.ts';
import type { WebDriver, WebService } from '../../drivers/web/web.driver.ts';
import { DaemonError } from '../../errors.ts';
import {
  type ChangeDelivery,
  type ChangedService,
  type ServiceApplying,
  ServiceChanges,
} from '../../jobs/service-changes.ts';
import type { Actor } from '../auth/actor.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import { UNNAMED_NODE } from '../nodes/placement-roles.ts';
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
    return { repaired: false, error: failureText(error) };
  }
}

/** A repair's failure for the operator: the web server's own message, else the error's. */
function failureText(error: unknown): string {
  const detail = error instanceof DaemonError ? error.detail : '';
  return detail || (error as Error).message;
}

/** What a change touches: the site folders it brings in, and the hosts whose rows it changes (see HostingChanges.change). */
export interface ChangeScope {
  prepare?: FolderPreparation;
  hosts?: readonly string[];
}

/** A hosting service the actor may use, with the permission levels the answers carry. */
export type HostedService = { id: number; domain: string; levels: HostingServiceDto['permissions']; actor?: Actor };

export type { ChangedService } from '../../jobs/service-changes.ts';

/** What the web side tells a customer of a service's changes not yet on the web server. */
export type WebApplying = ServiceApplying<'refused' | 'reload'>;

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
  /** The work log's side of the changes: their job, the calls' answers, the rounds. */
  private readonly log: ServiceChanges;

  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly driver: WebDriver,
    private readonly model: WebModel,
    /** The node's side, bound to the service's job by the composition root (or run here, inline). */
    readonly worker: WebApplyWorker,
    delivery: ChangeDelivery,
    private readonly now: () => number,
    /** This process's server (PANEL_NODE): `sync` makes it serve the services it holds, no other. */
    private readonly node: string = UNNAMED_NODE,
  ) {
    this.log = new ServiceChanges(db, APPLY_WEB, worker, delivery, now, { undone: 'web.error.undone', formField });
  }

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
   * service's job (see the class comment and ServiceChanges.make: the service's turn is taken
   * first, so its changes' entries are in the order they committed).
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
    const change: WebChange = { prepare, ...(hosts ? { hosts } : {}) };
    return this.log.make(service, change, async (trx) => {
      await hostingRepository.updateSettings(trx, service.id, { updated_at: this.now() });
      const undo = await webSnapshot(trx, service.id, hosts);
      return { value: await work(trx), undo };
    });
  }

  /** Whether the service's changes are all on the web server, as the overview shows it. */
  async applying(serviceId: number): Promise<WebApplying> {
    return this.log.applying(serviceId, FAILURE_REASONS);
  }

  /**
   * The service's job now, not at its next retry (the customer's "try again"): answers whether
   * every change of the service is on the web server within the budget.
   */
  applyNow(service: ChangedService): Promise<boolean> {
    return this.log.applyNow(service);
  }

  /** Sends the job of every service with web changes still to apply (the round of pending changes). */
  reapply(): Promise<number> {
    return this.log.reapply();
  }

  /**
   * Makes the web server serve every hosting service it holds exactly as the database has it: a service
   * with no live configuration (a restore, a switch from the embedded driver, a seed) or another
   * one is applied again; a live configuration of a service the panel no longer has here (removed,
   * or placed on another server) is removed.
   * `dryRun` only reports. One service that cannot be applied does not stop the others.
   */
  async sync(options: { dryRun: boolean }): Promise<WebDrift[]> {
    const report: WebDrift[] = [];
    const holds = await new PlacementService(this.db, this.now).holding('web', this.node);
    const services = (await hostingRepository.allServices(this.db)).filter((service) => holds(service.id));
    const drifted: { model: WebService; entry: WebDrift }[] = [];
    for (const service of services) {
      if (!options.dryRun) await this.ensure(this.db, service.id);
      const model = await this.model.read(this.db, service, options.dryRun ? [] : 'all');
      const drift = await this.driver.drift(model);
      if (!drift) continue;
      const entry: WebDrift = { serviceId: service.id, domain: service.domain, drift, repaired: false };
      drifted.push({ model, entry });
      report.push(entry);
    }
    if (!options.dryRun && drifted.length > 0) {
      // together: one test and one reload per batch, not one per service
      const failures = await this.driver.applyMany(drifted.map((one) => one.model));
      for (const { entry } of drifted) {
        const failure = failures.get(entry.serviceId);
        Object.assign(entry, failure === undefined ? { repaired: true } : { error: failureText(failure) });
      }
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
