import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { DatabasesApplying, DatabasesListData, HostedDatabase } from '@panel247/contract/databases';
import { servicePasswordProblem } from '@panel247/contract/password-rules';
import type { SignonForm } from '@panel247/contract/signon';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import {
  DATABASE_NAME_MAX,
  type DatabaseDrift,
  type DatabaseFingerprint,
  type DatabasesDriver,
} from '../../drivers/databases/databases.driver.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { ConflictError, FieldErrors, ForbiddenError, fieldProblem, NotFoundError } from '../../errors.ts';
import type { ChangedService, ServiceChanges } from '../../jobs/service-changes.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import type { Actor } from '../auth/actor.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { onServer, PlacementService } from '../nodes/placement.service.ts';
import { UNNAMED_NODE } from '../nodes/placement-roles.ts';
import type { AccessNeed, PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { type SignonTokens, sharedKeyMatches } from '../signon/signon-tokens.ts';
import { nextDatabaseNumber } from './database-names.ts';
import { databasesRepository } from './databases.repository.ts';
import type { DatabaseChange } from './databases-apply-worker.ts';

export interface DatabasesSettings {
  namePrefix: string;
  /** Where phpMyAdmin reaches MariaDB (handed over at sign-on). */
  host: string;
  port: number;
  phpmyadminUrl: string;
  phpmyadminKey?: string | undefined;
  /** The server this process is (PANEL_NODE; '' the unnamed machine): its sync looks at the databases it holds. */
  node?: string;
}

/** Room kept for the `_N` suffix when the service's name is cut to fit 64 characters. */
const SUFFIX_ROOM = 7;

type Row = {
  id: number;
  name: string;
  db_user: string;
  password_sealed: string;
  external_access: number;
  eliminable: number;
};

/**
 * The MariaDB databases of a hosting service. Each has one user of the same name; both names are
 * generated from the service's domain (`demo.test` → `demotest_1`), never typed. The password is
 * kept AES-256-GCM sealed for "show password" and the phpMyAdmin sign-on (MariaDB keeps its own
 * hash). Every change writes its row and an entry of the work log (area `databases`) in one
 * transaction; the service's `databases.apply-service` job (DatabasesApplyWorker, on the node
 * agent) makes MariaDB agree with the row, and the call waits a short budget for it (see
 * ServiceChanges): a MariaDB that refuses or is down leaves the change pending and retried.
 */
export class DatabasesService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly brands: BrandService,
    private readonly driver: DatabasesDriver,
    private readonly changes: ServiceChanges,
    private readonly secrets: SecretBox,
    private readonly signon: SignonTokens,
    private readonly settings: DatabasesSettings,
    private readonly now: () => number,
  ) {}

  /** Whether the service's database changes are all on its server (the databases' list shows it). */
  private applying(serviceId: number): Promise<DatabasesApplying> {
    return this.changes.applying<never>(serviceId);
  }

  /** The service's database job now (the customer's "try again"): whether every change is on the server. */
  async applyNow(actor: Actor, id: number): Promise<{ applying: DatabasesApplying; applied: boolean }> {
    const service = await this.service(actor, id, 'action');
    const applied = await this.changes.applyNow({ ...service, actor });
    return { applying: await this.applying(id), applied };
  }

  /** Sends the job of every service with database changes still to apply (the round of pending changes). */
  reapply(): Promise<number> {
    return this.changes.reapply();
  }

  /** Whether databases are created on a real server (the demo seed leaves those alone). */
  get live(): boolean {
    return this.driver.live;
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  /** The databases of a service for its backup (the provider's, no actor): each one's dump on demand. */
  async forBackup(
    serviceId: number,
  ): Promise<
    { name: string; dump: () => Promise<Readable>; fingerprint: () => Promise<DatabaseFingerprint | null> }[]
  > {
    const rows = await databasesRepository.list(this.db, serviceId);
    return rows.map((row) => ({
      name: row.name,
      dump: () => this.driver.dump(row.name),
      fingerprint: () => this.driver.fingerprint(row.name),
    }));
  }

  /**
   * A backed-up dump put into a new database of the service (the next free name, within the
   * plan's limit, with a new random password the customer sees with "show password"), leaving
   * the database it came from as it is. Answers the new database's name.
   */
  async restoreIntoNew(serviceId: number, domain: string, sql: Readable): Promise<string> {
    const row = await this.provision(serviceId, domain, { password: randomBytes(18).toString('base64url') });
    try {
      await this.driver.load(row.name, sql);
    } catch (error) {
      await this.driver.drop({ name: row.name, user: row.db_user }).catch(() => undefined);
      await databasesRepository.delete(this.db, serviceId, row.id);
      throw error;
    }
    return row.name;
  }

  /** Runs a backed-up dump in one of the service's databases (its tables as they were then). */
  async restoreFromBackup(serviceId: number, name: string, sql: Readable): Promise<void> {
    const row = (await databasesRepository.list(this.db, serviceId)).find((database) => database.name === name);
    if (!row) throw new NotFoundError();
    await this.driver.load(row.name, sql);
  }

  /**
   * `panel databases sync`: makes MariaDB agree with the panel's databases (each database, its
   * user's host entries and grants, its password) and reports what had drifted; `dryRun` only
   * reports. The provider's command, so no actor: it acts on every service. With a name prefix,
   * the server is shared and only databases under the prefix can be the panel's extras.
   */
  async sync(options: SyncOptions): Promise<DatabaseDrift[]> {
    const holds = await new PlacementService(this.db, this.now).holding(
      'databases',
      this.settings.node ?? UNNAMED_NODE,
    );
    const rows = (await databasesRepository.all(this.db)).filter((row) => holds(row.service_id));
    const wanted = rows.map((row) => ({
      name: row.name,
      user: row.db_user,
      password: this.secrets.open(row.password_sealed),
      externalAccess: row.external_access === 1,
    }));
    const drift = await this.driver.sync(wanted, options);
    return drift.filter((entry) => entry.problem !== 'extra' || entry.name.startsWith(this.settings.namePrefix));
  }

  private async service(actor: Actor, id: number, need: AccessNeed) {
    const resource = await this.permissions.authorize(actor, id, 'service_ddbb', need);
    return { id, domain: resource.referencePunycode };
  }

  private async row(actor: Actor, id: number, did: number, need: AccessNeed): Promise<Row & { domain: string }> {
    const { domain } = await this.service(actor, id, need);
    const row = await databasesRepository.find(this.db, id, did);
    if (!row) throw new NotFoundError();
    return { ...row, domain };
  }

  private toDto(row: Row, size: number, password = ''): HostedDatabase {
    return {
      id: row.id,
      bbdd: row.name,
      user: row.db_user,
      password,
      externalAccess: row.external_access === 1,
      eliminable: row.eliminable === 1,
      size,
    };
  }

  /**
   * Sizes are shown, not relied on: with MariaDB unreachable the list still answers (sizes 0), so
   * the user can at least see the databases; every change reports the outage itself.
   */
  private async sizes(names: string[]): Promise<Map<string, number>> {
    try {
      return await this.driver.usage(names);
    } catch {
      return new Map();
    }
  }

  /** What the databases hold together; unknown (MariaDB unreachable) counts as nothing. */
  private async totalSize(names: string[]): Promise<number> {
    let total = 0;
    for (const size of (await this.sizes(names)).values()) total += size;
    return total;
  }

  async list(actor: Actor, id: number): Promise<DatabasesListData> {
    await this.service(actor, id, 'visible');
    const rows = await databasesRepository.list(this.db, id);
    const sizes = await this.sizes(rows.map((row) => row.name));
    return {
      ddbb: rows.map((row) => this.toDto(row, sizes.get(row.name) ?? 0)),
      limit: (await planLimits.of(this.db, id)).databases,
      applying: await this.applying(id),
    };
  }

  /**
   * One database with its password: "show password". The entry is shown to all who see the
   * databases, but the password opens the database for writing: only the database right reads it.
   */
  async get(actor: Actor, id: number, did: number): Promise<HostedDatabase> {
    const row = await this.row(actor, id, did, 'secret');
    const sizes = await this.sizes([row.name]);
    return this.toDto(row, sizes.get(row.name) ?? 0, this.secrets.open(row.password_sealed));
  }

  async create(actor: Actor, id: number, password: string): Promise<HostedDatabase> {
    const service = await this.service(actor, id, 'action');
    const errors = fieldProblem('password', servicePasswordProblem(password));
    if (errors.length > 0) throw new FieldErrors(errors);
    return this.toDto(await this.provision(id, service.domain, { password }, actor), 0);
  }

  /** `demo.test` → `{prefix}demotest`: the letters and digits of the domain, cut to leave room for `_N`. */
  baseName(domain: string): string {
    const letters = domain.toLowerCase().replace(/[^a-z0-9]/g, '') || 'db';
    return `${this.settings.namePrefix}${letters}`.slice(0, DATABASE_NAME_MAX - SUFFIX_ROOM);
  }

  /**
   * Creates a database whose password is already checked (the create call above, the demo seed):
   * the next free `{base}_N`, within the plan's limit. A name MariaDB has already (made outside
   * the panel) is skipped for the next number.
   */
  async provision(
    serviceId: number,
    domain: string,
    input: { password: string; eliminable?: boolean },
    actor?: Actor,
  ): Promise<Row> {
    // Room for another database's data: a plan whose databases' space is full takes no new one.
    const limits = await planLimits.of(this.db, serviceId);
    const names = (await databasesRepository.list(this.db, serviceId)).map((row) => row.name);
    if (limits.databaseSpaceMb !== null && names.length > 0)
      planLimits.spaceLeft(limits, 'databaseSpaceMb', await this.totalSize(names), 1);
    const base = this.baseName(domain);
    const name = `${base}_${await nextDatabaseNumber(this.db, base)}`;
    const made = await this.change(
      { id: serviceId, domain, ...(actor ? { actor } : {}) },
      (row: Row) => ({ step: 'created', id: row.id, name: row.name, user: row.db_user }),
      async (trx) => {
        await planLimits.admit(trx, serviceId, 'databases');
        return databasesRepository.insert(trx, {
          service_id: serviceId,
          name,
          db_user: name,
          password_sealed: this.secrets.seal(input.password),
          external_access: 0,
          eliminable: input.eliminable === false ? 0 : 1,
          created_at: this.now(),
        });
      },
    );
    // The node may have given it the next name (this one was taken outside the panel).
    return (await databasesRepository.find(this.db, serviceId, made.id)) ?? made;
  }

  /** One database change (see ServiceChanges.make): nothing kept to undo, MariaDB refuses no field. */
  private change<T>(
    service: ChangedService,
    change: DatabaseChange | ((value: T) => DatabaseChange),
    work: (trx: Db) => Promise<T>,
  ): Promise<T> {
    return this.changes.make(service, change, async (trx) => ({ value: await work(trx), undo: null }));
  }

  async changePassword(actor: Actor, id: number, did: number, password: string): Promise<HostedDatabase> {
    const row = await this.row(actor, id, did, 'action');
    const errors = fieldProblem('password', servicePasswordProblem(password));
    if (errors.length > 0) throw new FieldErrors(errors);
    const updated = await this.change(
      { id, domain: row.domain, actor },
      { step: 'password', id: did, name: row.name, user: row.db_user },
      (trx) => databasesRepository.update(trx, id, did, { password_sealed: this.secrets.seal(password) }),
    );
    const sizes = await this.sizes([row.name]);
    return this.toDto(updated, sizes.get(row.name) ?? 0);
  }

  async toggleExternalAccess(actor: Actor, id: number, did: number): Promise<HostedDatabase> {
    const row = await this.row(actor, id, did, 'action');
    const on = row.external_access !== 1;
    const updated = await this.change(
      { id, domain: row.domain, actor },
      { step: 'access', id: did, name: row.name, user: row.db_user },
      (trx) => databasesRepository.update(trx, id, did, { external_access: on ? 1 : 0 }),
    );
    const sizes = await this.sizes([row.name]);
    return this.toDto(updated, sizes.get(row.name) ?? 0);
  }

  async remove(actor: Actor, id: number, did: number): Promise<void> {
    const row = await this.row(actor, id, did, 'action');
    if (row.eliminable !== 1) throw new ForbiddenError('ddbb.error.not_eliminable');
    noteChangeDetail(actor.activity, { target: row.name });
    // The row goes at once; the node's drop is idempotent, so a retry finishes a partial one.
    await this.change(
      { id, domain: row.domain, actor },
      { step: 'deleted', id: did, name: row.name, user: row.db_user },
      (trx) => databasesRepository.delete(trx, id, did),
    );
  }

  /**
   * The database as SQL, streamed from MariaDB's dump tool to the download. A database action
   * (the whole contents), like "show password" and phpMyAdmin.
   */
  async dump(actor: Actor, id: number, did: number): Promise<{ fileName: string; stream: Readable }> {
    const row = await this.row(actor, id, did, 'action');
    return { fileName: `${row.name}.sql`, stream: await this.driver.dump(row.name) };
  }

  /** Where the sign-on form goes: the brand's phpMyAdmin host with the configured path, or the URL. */
  private async phpmyadminAction(brandId: number): Promise<string> {
    const brand = await this.brands.byId(brandId);
    if (!brand.phpmyadminHost) return this.settings.phpmyadminUrl;
    const pathname = new URL(this.settings.phpmyadminUrl, 'http://panel.invalid').pathname;
    return `https://${brand.phpmyadminHost}${pathname}`;
  }

  /**
   * phpMyAdmin sign-on: a one-time token the browser posts to the hand-off script next to
   * phpMyAdmin, whose server trades it here for the credentials (`redeemToken`), so the password
   * never reaches the browser. Shown to everyone who can see the databases, but phpMyAdmin logs in
   * as the database's user, who may change everything in it: only the database right gets the token.
   */
  async phpmyadminLogin(actor: Actor, id: number, did: number): Promise<SignonForm> {
    const row = await this.row(actor, id, did, 'secret');
    // Without the shared key no hand-off script can redeem the token: say so instead of a dead page.
    if (!this.settings.phpmyadminKey) throw new ConflictError('ddbb.error.phpmyadmin_off');
    const token = await this.signon.issue('phpmyadmin', row.id);
    return {
      action: onServer(
        await this.phpmyadminAction(actor.brandId),
        (await new PlacementService(this.db, this.now).serversOf(id)).databases,
      ),
      method: 'post',
      fields: { user: row.db_user, token },
    };
  }

  /** For the hand-off script: the login a token opens, once. */
  async redeemToken(key: string, token: string) {
    if (!sharedKeyMatches(this.settings.phpmyadminKey, key)) throw new ForbiddenError();
    const databaseId = await this.signon.take('phpmyadmin', token);
    const row = databaseId === undefined ? undefined : await databasesRepository.findById(this.db, databaseId);
    if (!row) throw new NotFoundError('signon.error.token');
    return {
      user: row.db_user,
      password: this.secrets.open(row.password_sealed),
      host: this.settings.host,
      port: this.settings.port,
      database: row.name,
    };
  }
}
