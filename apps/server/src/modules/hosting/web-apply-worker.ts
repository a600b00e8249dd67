import type { Db } from '../../db/database.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import { hostsToRender } from '../../drivers/web/web-render.ts';
import { ServiceChangeWorker, type ServiceRef } from '../../jobs/service-change-worker.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import type { ServiceUsers } from './service-users.ts';
import type { FolderPreparation, WebModel } from './web-model.ts';
import { restoreWebSnapshot, type WebUndo } from './web-undo.repository.ts';

/** What one web change touched: the folders it brings in, and the hosts whose rows it changed. */
export interface WebChange {
  prepare: FolderPreparation;
  /** The subdomains ('' the main domain) whose sites or redirections it changed; absent: the whole service. */
  hosts?: string[];
}

/**
 * What a hosting service's `web.apply-service` job does (see ServiceChangeWorker): each change
 * gives the web driver what it touched as the database holds it then (the touched hosts where
 * the driver can take them alone, else the whole service); a refused one puts the service's
 * sites and redirections back as they were before it.
 */
export class WebApplyWorker extends ServiceChangeWorker<WebChange, WebUndo> {
  protected readonly failureKey = 'web.error.apply';

  constructor(
    db: Db,
    private readonly driver: WebDriver,
    private readonly model: WebModel,
    now: () => number,
    landed?: WorkLanded,
    private readonly users?: ServiceUsers,
  ) {
    super(db, 'web', now, landed);
  }

  protected async apply(service: ServiceRef, change: WebChange): Promise<void> {
    await this.users?.ensureHere(service.id, service.domain);
    // A change that prepares every folder is a service's first: the driver has no hosts to keep yet.
    if (change.hosts && change.prepare !== 'all') {
      const touched = hostsToRender(change.hosts);
      const model = await this.model.read(this.db, service, change.prepare, touched);
      if (await this.driver.applyHosts({ ...model, hosts: touched })) return;
    }
    await this.driver.apply(await this.model.read(this.db, service, change.prepare));
  }

  protected restore(trx: Db, serviceId: number, undo: WebUndo): Promise<void> {
    return restoreWebSnapshot(trx, serviceId, undo, this.now());
  }

  protected whole(): WebChange {
    return { prepare: [] };
  }
}
