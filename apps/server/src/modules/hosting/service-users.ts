import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import { HOME_MODE, HomeOwners, type HomeProblem } from '../../drivers/homes/home-owner.ts';
import { createServiceUserDriver } from '../../drivers/users/create-users-driver.ts';
import { type ServiceUserDriver, type SystemUser, serviceUserName } from '../../drivers/users/users.driver.ts';
import type { WebPool } from '../../drivers/web/web.driver.ts';
import { DaemonError, NotFoundError } from '../../errors.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import { UNNAMED_NODE } from '../nodes/placement-roles.ts';
import { serviceUsersRepository as repository, type ServiceUserRow } from './service-users.repository.ts';

/** Who file work in a service home runs as: the service's user and group (one type for both sides). */
export type { FileOwner } from '../../drivers/files/confined/protocol.ts';

export interface ServiceUsersSettings {
  /** The range uids (and the groups' gids) are given from, both ends included. */
  uidMin: number;
  uidMax: number;
  /** PANEL_HOSTING_ROOT: homes are <root>/<domain>. */
  hostingRoot: string;
  /** The web server's group (PANEL_HOSTING_GID): every home's group, so nginx reads what it serves. */
  webGid: number;
  /**
   * PANEL_HOSTING_UID/GID: the owner of what the panel makes in the homes of services that have
   * no user yet (before `panel sync` gave them one), which their FTP logins (uid 33 in the view)
   * and PHP (PANEL_WEB_PHP_USER) still run as.
   */
  fallback: FileOwner;
  /** This process's server (PANEL_NODE; '' or absent: the unnamed machine). */
  node?: string;
}

/** What `panel users sync` found of one service (or of one account of no service). */
export interface ServiceUserDrift {
  /** null: a system account named like a service user whose service the panel does not have. */
  serviceId: number | null;
  domain: string | null;
  user: string;
  /**
   * `user`: the service has no user yet, or the system lacks its account (`problems` says which);
   * `clash`: its name or number is another account's (never repaired); `extra`: an account of no
   * service (removed); `home`: the home's owner, group or mode (`problems`).
   */
  drift: 'user' | 'clash' | 'extra' | 'home';
  problems: (HomeProblem | 'no_row' | 'no_account')[];
  repaired: boolean;
  error?: string;
}

/**
 * Each hosting service's own system user and group (DESIGN.md, "Isolation"): the name comes from
 * the service id (`p247s<id>`), the uid from the operator's range, the group has the same name
 * and number. Its PHP pool, FTP logins and file work run as it; its home is
 * `<root>/<domain>`, owned by it, group the web server's, mode 0750.
 *
 * With the embedded driver there are none: `ensure` does nothing and `ownerOf` answers undefined
 * (file work runs with the panel's own rights, FTP as uid 33, PHP as PANEL_WEB_PHP_USER).
 * With the system driver a service gets its user when it is created (`resource add --service`,
 * the seeds) or at `panel sync`, which is also how services made before are moved to theirs;
 * until then it keeps running as the web server's user, in every daemon alike.
 */
export class ServiceUsers {
  /** Services whose account and home this process has made (or found) on its server. */
  private readonly madeHere = new Set<number>();

  constructor(
    private readonly db: Db,
    private readonly driver: ServiceUserDriver,
    private readonly homes: HomeOwners,
    private readonly settings: ServiceUsersSettings,
    private readonly now: () => number,
  ) {}

  /** Whether services get system users of their own (the system driver). */
  get enabled(): boolean {
    return this.driver.kind === 'system';
  }

  /** The row of the service, made now if it has none (a uid from the range). */
  private async allocate(serviceId: number): Promise<ServiceUserRow> {
    const { uidMin: min, uidMax: max } = this.settings;
    const row = await repository.allocate(this.db, serviceId, serviceUserName(serviceId), { min, max }, this.now());
    if (row === 'full') {
      throw new DaemonError(
        'hosting.error.service_user',
        `every uid of PANEL_SERVICE_UID_MIN..PANEL_SERVICE_UID_MAX (${min}..${max}) is taken: widen the range for service ${serviceId}`,
      );
    }
    return row;
  }

  private systemUser(row: ServiceUserRow, domain: string): SystemUser {
    return { name: row.name, uid: row.uid, gid: row.gid, home: this.homes.home(domain) };
  }

  private homeOwnership(row: Pick<ServiceUserRow, 'uid'>) {
    return { uid: row.uid, gid: this.settings.webGid, mode: HOME_MODE };
  }

  /**
   * Gives the service its user (allocated once, kept for ever), makes the system account and
   * group, and makes its home (owner, group, mode). Idempotent; a clash with another account, or
   * a range with no uid left, is a DaemonError. Nothing with the embedded driver. The account and
   * home are made only on the server holding the service's home: for a service placed on another
   * server, only its number is allocated here, and that server's agent makes them before the
   * service's first change is applied there (`ensureHere`).
   */
  async ensure(serviceId: number, domain: string): Promise<FileOwner | undefined> {
    if (!this.enabled) return undefined;
    // Allocated with the panel's own connection, never inside a caller's transaction: a rollback
    // must not leave a system account whose number the database has forgotten.
    const row = await this.allocate(serviceId);
    const node = this.settings.node ?? UNNAMED_NODE;
    if ((await new PlacementService(this.db, this.now).nodeOf(serviceId, 'web')) !== node)
      return { uid: row.uid, gid: row.gid };
    await this.driver.ensure(this.systemUser(row, domain));
    const home = await this.homes.repair(domain, this.homeOwnership(row), { dryRun: false });
    if (home && !home.repaired) {
      throw new DaemonError('hosting.error.service_user', `${home.home}: ${home.error ?? home.problems.join(', ')}`);
    }
    await repository.recordHome(this.db, serviceId, this.homes.home(domain));
    this.madeHere.add(serviceId);
    return { uid: row.uid, gid: row.gid };
  }

  /**
   * Before a change of the service is applied on this server: its account and home are here (a
   * PHP pool naming an account the server lacks would stop PHP-FPM). Asked once per process.
   */
  async ensureHere(serviceId: number, domain: string): Promise<void> {
    if (!this.enabled || this.madeHere.has(serviceId)) return;
    await this.ensure(serviceId, domain);
  }

  /** Removes the service's system account and group, then its row. The home is left as it is. */
  async remove(serviceId: number): Promise<void> {
    const row = await repository.byService(this.db, serviceId);
    if (!row) return;
    if (this.enabled) await this.driver.remove(row);
    await repository.delete(this.db, serviceId);
  }

  /** A terminated service's system account and group removed (its row went with the service). */
  async removeAccount(user: { name: string; uid: number; gid: number }): Promise<void> {
    if (this.enabled) await this.driver.remove(user);
  }

  /**
   * Who file work in the service's home must run as: its user and group; with the system driver
   * and no user yet, PANEL_HOSTING_UID/GID (what its FTP and PHP still run as); undefined with the
   * embedded driver (the panel's own rights). A service the panel does not have is not found.
   */
  async ownerOf(serviceId: number): Promise<FileOwner | undefined> {
    if (!this.enabled) return undefined;
    const row = await repository.byService(this.db, serviceId);
    if (row) return { uid: row.uid, gid: row.gid };
    if (!(await repository.domainOf(this.db, serviceId))) throw new NotFoundError();
    return { ...this.settings.fallback };
  }

  /** Whether a hosting service (whose home is named after it) has this domain. */
  hosts(domain: string): Promise<boolean> {
    return repository.hasService(this.db, domain);
  }

  /** `ownerOf`, for the service whose home is named after `domain`. */
  async ownerOfDomain(domain: string): Promise<FileOwner | undefined> {
    if (!this.enabled) return undefined;
    const row = await repository.byDomain(this.db, domain);
    return row ? { uid: row.uid, gid: row.gid } : { ...this.settings.fallback };
  }

  /** The PHP pool's user of the service (`db` may be a change's transaction); undefined: the default pool user. */
  async poolOf(db: Db, serviceId: number): Promise<WebPool | undefined> {
    if (!this.enabled) return undefined;
    const row = await repository.byService(db, serviceId);
    return row ? { user: row.name, group: row.name, uid: row.uid, gid: row.gid } : undefined;
  }

  /**
   * `panel users sync`: every hosting service gets its user if it has none (the migration step of
   * services made before), the system's accounts are made to match the rows, each home's owner,
   * group and mode are set, and accounts named like a service user, in the range, whose service
   * is gone are removed. `dryRun` only reports. Nothing with the embedded driver.
   */
  async sync(options: { dryRun: boolean }): Promise<ServiceUserDrift[]> {
    if (!this.enabled) return [];
    const report: ServiceUserDrift[] = [];
    const known = new Set<string>();
    // Only the services whose home is on this server; the others' users are their servers' (and
    // an account of a service placed elsewhere counts as one of no service here).
    const holds = await new PlacementService(this.db, this.now).holding('web', this.settings.node ?? UNNAMED_NODE);
    for (const service of (await repository.servicesWithUsers(this.db)).filter((one) => holds(one.serviceId))) {
      const name = service.name ?? serviceUserName(service.serviceId);
      known.add(name);
      const entry = { serviceId: service.serviceId, domain: service.domain, user: name };
      let row: ServiceUserRow | undefined =
        service.name !== null && service.uid !== null && service.gid !== null
          ? { service_id: service.serviceId, name: service.name, uid: service.uid, gid: service.gid }
          : undefined;
      try {
        const state = row ? await this.driver.check(this.systemUser(row, service.domain)) : undefined;
        if (state?.state === 'clash') {
          report.push({ ...entry, drift: 'clash', problems: [], repaired: false, error: state.detail });
          continue;
        }
        if (!row || state?.state === 'missing') {
          const problems: ServiceUserDrift['problems'] = row ? ['no_account'] : ['no_row', 'no_account'];
          if (options.dryRun) {
            report.push({ ...entry, drift: 'user', problems, repaired: false });
          } else {
            row = await this.allocate(service.serviceId);
            await this.driver.ensure(this.systemUser(row, service.domain));
            report.push({ ...entry, drift: 'user', problems, repaired: true });
          }
        }
      } catch (error) {
        const detail = error instanceof DaemonError ? error.detail : (error as Error).message;
        report.push({ ...entry, drift: 'user', problems: [], repaired: false, error: detail });
        continue;
      }
      // A dry run of a service with no row yet: its home will belong to a user it does not have.
      if (!row) continue;
      const home = await this.homes.repair(service.domain, this.homeOwnership(row), options);
      if (home)
        report.push({
          ...entry,
          drift: 'home',
          problems: home.problems,
          repaired: home.repaired,
          ...(home.error ? { error: home.error } : {}),
        });
    }
    for (const row of await repository.all(this.db)) known.add(row.name);
    const { uidMin, uidMax } = this.settings;
    for (const account of await this.driver.list()) {
      if (known.has(account.name) || account.uid < uidMin || account.uid > uidMax) continue;
      const entry = { serviceId: null, domain: null, user: account.name, drift: 'extra' as const, problems: [] };
      if (options.dryRun) {
        report.push({ ...entry, repaired: false });
        continue;
      }
      try {
        await this.driver.remove(account);
        report.push({ ...entry, repaired: true });
      } catch (error) {
        const detail = error instanceof DaemonError ? error.detail : (error as Error).message;
        report.push({ ...entry, repaired: false, error: detail });
      }
    }
    return report;
  }
}

/** The service users of this configuration (with the driver it names, unless given one). */
export function createServiceUsers(
  db: Db,
  config: AppConfig,
  now: () => number,
  driver: ServiceUserDriver = createServiceUserDriver(config),
): ServiceUsers {
  return new ServiceUsers(
    db,
    driver,
    new HomeOwners(config.hosting.root as string),
    {
      uidMin: config.serviceUsers.uidMin,
      uidMax: config.serviceUsers.uidMax,
      hostingRoot: config.hosting.root as string,
      webGid: config.hosting.gid,
      fallback: { uid: config.hosting.uid, gid: config.hosting.gid },
      node: config.agent.node,
    },
    now,
  );
}
