import path from 'node:path';
import type { Language } from '@panel247/contract/constants';
import { APP_CONFIG_PREFIX, type HostingApplication, type InstallJob } from '@panel247/contract/installer';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import type { FilesPlace } from '../../drivers/files/service-files.ts';
import { normaliseServiceFolder, type ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { type InstallerDriver, PayloadError } from '../../drivers/installer/installer.driver.ts';
import { type FieldError, FieldErrors, NotFoundError } from '../../errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { newWorkIds, workLost } from '../../jobs/recorded-work.ts';
import type { Actor } from '../auth/actor.ts';
import type { DatabasesService } from '../databases/databases.service.ts';
import { databaseHostRecord } from '../dns/database-host-record.ts';
import type { SiteService } from '../hosting/site.service.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { AppCatalogue } from './app-catalogue.ts';
import { renderTemplate } from './app-template.ts';
import { readConfigAnswers } from './config-answers.ts';
import { INSTALL_APPLICATION, type InstallOrder } from './installer.jobs.ts';
import { installerRepository } from './installer.repository.ts';

const KEEP_SECONDS = 7 * 24 * 3600;

export interface InstallerSettings {
  /**
   * Where the installed applications reach MariaDB (written into their config), unless the
   * service's databases are placed on a server: then the zone's name that follows that server
   * (database-host-record.ts), or its host name.
   */
  databaseHost: string;
  databasePort: number;
  maxBytes: number;
}

export interface InstallRequest {
  subdomainID: number;
  applicationID: number;
  mysqlID: number | '';
  subpath: string;
  [field: string]: unknown;
}

type JobRow = NonNullable<Awaited<ReturnType<typeof installerRepository.find>>>;

/**
 * The application installer: the catalogue, and installs of a package into a site's folder.
 * Everything the user can get wrong is checked before the call answers (field errors, nothing
 * written); the copy itself then runs as a job of the work log (INSTALL_APPLICATION) whose row
 * the client follows. A job unpacks into a hidden folder beside the target and renames it into
 * place at the end, so a failure leaves nothing half-installed.
 */
export class InstallerService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly sites: SiteService,
    private readonly databases: DatabasesService,
    private readonly homes: ServiceHomes,
    private readonly files: InstallerDriver,
    private readonly catalogue: AppCatalogue,
    private readonly settings: InstallerSettings,
    private readonly now: () => number,
    private readonly log: (detail: object, message: string) => void,
    private readonly ownerOf: (serviceId: number) => Promise<FileOwner | undefined>,
    private readonly jobs: Pick<JobEngine, 'send' | 'find'>,
    private readonly sealed: SecretBox,
  ) {}

  list(language: Language): Promise<HostingApplication[]> {
    return this.catalogue.list(language);
  }

  logo(appId: number) {
    return this.catalogue.logo(appId);
  }

  /** The spec's rule: installing touches sites, files and databases, so it needs the three rights. */
  private async authorize(actor: Actor, id: number) {
    const resource = await this.permissions.authorize(actor, id, 'service_subdomains', 'action');
    await this.permissions.authorize(actor, id, 'service_ftp', 'action');
    await this.permissions.authorize(actor, id, 'service_ddbb', 'action');
    return resource.referencePunycode;
  }

  async install(actor: Actor, id: number, request: InstallRequest, language: Language): Promise<InstallJob> {
    const domain = await this.authorize(actor, id);
    const errors: FieldError[] = [];

    const site = await this.sites.get(actor, id, request.subdomainID).catch((error: unknown) => {
      if (error instanceof NotFoundError) errors.push({ field: 'subdomainID', messageKey: 'installer.error.site' });
      else throw error;
      return null;
    });
    const app = await this.catalogue.find(request.applicationID);
    if (!app) errors.push({ field: 'applicationID', messageKey: 'installer.error.app' });

    let subpath = '';
    if (hasControlCharacters(request.subpath))
      errors.push({ field: 'subpath', messageKey: 'validation.control_chars' });
    else {
      try {
        subpath = normaliseServiceFolder(request.subpath.trim(), 'subpath');
      } catch (error) {
        if (!(error instanceof FieldErrors)) throw error;
        errors.push(...error.fields);
      }
    }

    const values = new Map<string, string>();
    if (app) {
      const answers = readConfigAnswers(app.inputs, request, APP_CONFIG_PREFIX, language);
      errors.push(...answers.errors);
      for (const [name, value] of answers.values) values.set(`cfg.${name}`, value);
      if (app.manifest.database) await this.addDatabase(actor, id, domain, request.mysqlID, values, errors);
    }
    if (errors.length > 0 || !site || !app) throw new FieldErrors(errors);

    const folder = [site.directorio, subpath].filter(Boolean).join('/');
    await this.emptyTarget(id, domain, folder);
    const host = site.subdominio === '' ? domain : `${site.subdominio}.${domain}`;
    const url = `${site.ssl.enabled ? 'https' : 'http'}://${host}/${subpath ? `${subpath}/` : ''}`;
    values.set('site.url', url);
    values.set('site.host', host);
    values.set('site.path', `/${subpath}`);

    const { rowId: jobId, workId } = newWorkIds();
    // Old finished jobs go when a new one starts, not on every poll of a running one.
    await installerRepository.sweep(this.db, this.now() - KEEP_SECONDS);
    await installerRepository.insert(this.db, {
      id: jobId,
      userId: actor.userId,
      serviceId: id,
      appId: app.manifest.id,
      now: this.now(),
    });
    const sealedValues = this.sealed.seal(JSON.stringify([...values]));
    await this.jobs.send(
      INSTALL_APPLICATION,
      { jobId, serviceId: id, domain, appId: app.manifest.id, folder, url, sealedValues },
      { id: workId },
    );
    return this.job(actor, jobId, language);
  }

  /** The chosen database's credentials, for the templates; it must be one of this service's. */
  private async addDatabase(
    actor: Actor,
    id: number,
    domain: string,
    mysqlID: number | '',
    values: Map<string, string>,
    errors: FieldError[],
  ): Promise<void> {
    if (mysqlID === '' || mysqlID === 0) {
      errors.push({ field: 'mysqlID', messageKey: 'installer.error.database_required' });
      return;
    }
    try {
      const database = await this.databases.get(actor, id, mysqlID);
      // a service whose databases are on a server of their own: the application reaches that one,
      // by the zone's name that follows them from server to server when the provider made one
      const placed = (await new PlacementService(this.db, this.now).serversOf(id)).databases;
      const following = placed && (await databaseHostRecord(this.db, id, domain));
      values.set('db.host', following || placed?.host || this.settings.databaseHost);
      values.set('db.port', String(this.settings.databasePort));
      values.set('db.name', database.bbdd);
      values.set('db.user', database.user);
      values.set('db.password', database.password);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      errors.push({ field: 'mysqlID', messageKey: 'installer.error.database' });
    }
  }

  /**
   * The install folder, checked by the service's worker: no link on the way, the folders above it
   * made, and it may exist only as an empty folder.
   */
  private async emptyTarget(serviceId: number, domain: string, folder: string): Promise<FilesPlace> {
    // A new service's home may not be on the disk yet.
    const home = await this.homes.prepare(domain, '', 'subpath');
    const place = { home, folder: '', owner: await this.ownerOf(serviceId) };
    await this.files.checkTarget(place, folder);
    return place;
  }

  /** An install's work (INSTALL_APPLICATION's handler): the copy, its progress on the row. */
  async run(order: InstallOrder): Promise<void> {
    const { jobId } = order;
    const row = await installerRepository.byId(this.db, jobId);
    if (row?.status !== 'queued') return;
    const step = (progress: number) =>
      installerRepository.update(this.db, jobId, { status: 'running', progress }, this.now());
    const app = await this.catalogue.find(order.appId);
    try {
      await step(5);
      if (!app) throw new PayloadError(`application ${order.appId} is no longer in the catalogue`);
      const values = new Map<string, string>(JSON.parse(this.sealed.open(order.sealedValues)));
      const configs: { path: string; text: string }[] = [];
      for (const template of app.templates)
        configs.push({
          path: template.target,
          text: await renderTemplate(template.text, template.syntax, values),
        });
      await step(10);
      const place = await this.emptyTarget(order.serviceId, order.domain, order.folder);
      await this.files.install(
        place,
        order.folder,
        path.join(app.folder, app.manifest.payload),
        configs,
        this.settings.maxBytes,
      );
      await installerRepository.update(
        this.db,
        jobId,
        { status: 'done', progress: 100, result_url: order.url, result_folder: order.folder },
        this.now(),
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const errorKey =
        error instanceof PayloadError
          ? 'installer.error.package'
          : code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR'
            ? 'installer.error.not_empty'
            : 'installer.error.failed';
      this.log(
        {
          event: 'installer.failed',
          jobId,
          app: app?.manifest.softName ?? order.appId,
          error: (error as Error).message,
        },
        'install failed',
      );
      await installerRepository
        .update(this.db, jobId, { status: 'failed', error_key: errorKey }, this.now())
        .catch(() => undefined);
    }
  }

  /**
   * A job of the actor's, on a service the caller still sees: another user's id answers like a
   * missing one, and so does the job of a service outside the caller's API token (the job is the
   * user's, but the token reaches only its own resources).
   */
  async job(actor: Actor, jobId: string, language: Language): Promise<InstallJob> {
    const row = await installerRepository.find(this.db, jobId, actor.userId);
    if (!row) throw new NotFoundError();
    await this.permissions.authorize(actor, row.service_id, 'service_subdomains', 'visible');
    if (
      (row.status === 'queued' || row.status === 'running') &&
      (await workLost(this.jobs, INSTALL_APPLICATION, row, this.now()))
    ) {
      await installerRepository.failUnfinished(this.db, jobId, 'installer.error.interrupted', this.now());
      return this.job(actor, jobId, language);
    }
    return toJob(row, language);
  }
}

function toJob(row: JobRow, language: Language): InstallJob {
  const status = row.status as InstallJob['status'];
  return {
    id: row.id,
    kind: 'installapp',
    status,
    progress: row.progress,
    result: status === 'done' ? { url: row.result_url, folder: row.result_folder } : null,
    error:
      status === 'failed'
        ? { name: translate(language, 'installer.failed'), message: translate(language, row.error_key) }
        : null,
  };
}
