import { filesPagePath } from '@panel247/contract/files';
import type { FtpAccount, FtpApplying, FtpListParams, FtpMainData } from '@panel247/contract/ftp';
import { FTP_PASSWORD_MAX_BYTES, FTP_USER_MAX, ftpPasswordFits, isFtpUserName } from '@panel247/contract/ftp-rules';
import { servicePasswordProblem } from '@panel247/contract/password-rules';
import type { SignonForm } from '@panel247/contract/signon';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { inChunks } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import { listPageOf } from '../../db/list-query.ts';
import type { FtpDriver } from '../../drivers/ftp/ftp.driver.ts';
import { normaliseServiceFolder } from '../../drivers/homes/service-homes.ts';
import { type FieldError, FieldErrors, ForbiddenError, fieldProblem, NotFoundError } from '../../errors.ts';
import type { ChangedService, ServiceChanges } from '../../jobs/service-changes.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import { changedFields } from '../activity/activity-summary.ts';
import type { Actor } from '../auth/actor.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { onServer, PlacementService } from '../nodes/placement.service.ts';
import type { AccessNeed, PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { type SignonTokens, sharedKeyMatches } from '../signon/signon-tokens.ts';
import { ftpRepository } from './ftp.repository.ts';
import type { FtpUndo } from './ftp-apply-worker.ts';
import { sftpKeysRepository } from './sftp-keys.repository.ts';
import type { SftpKeysService } from './sftp-keys.service.ts';

/** The shared service password rule, and no more than bcrypt reads. */
function checkFtpPassword(password: string): FieldError[] {
  const errors = fieldProblem('password', servicePasswordProblem(password));
  if (errors.length === 0 && !ftpPasswordFits(password))
    errors.push({
      field: 'password',
      messageKey: 'ftp.error.password_long',
      params: { max: String(FTP_PASSWORD_MAX_BYTES) },
    });
  return errors;
}

/**
 * FTP accounts of a hosting service. ProFTPD reads them through `ftp_users_view` (or the FTP
 * driver's copy of it). The password is kept twice: a bcrypt hash ProFTPD checks, and an
 * AES-256-GCM copy for "show password" (never logged, never in lists). Every change is one
 * transaction that writes its rows and an entry of the work log (area `ftp`: the folders it
 * brings in, the rows it replaced); the service's `ftp.apply-service` job (FtpApplyWorker) makes
 * the folders on its server and rewrites ProFTPD's copy, and the call waits a short budget for
 * that (see ServiceChanges).
 */
export class FtpService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly brands: BrandService,
    private readonly driver: FtpDriver,
    private readonly changes: ServiceChanges,
    private readonly secrets: SecretBox,
    private readonly signon: SignonTokens,
    private readonly settings: {
      ftpPort: number;
      sftpPort: number;
      ftpHost: string;
      webftpUrl: string;
      webftpKey?: string | undefined;
    },
    private readonly now: () => number,
    /** The service's SFTP keys: changes of the same area, made through the same job. */
    readonly keys: SftpKeysService,
  ) {}

  /** One FTP change (see ServiceChanges.make): `folders` are the account folders it brings in. */
  private change<T>(
    service: ChangedService,
    folders: string[],
    work: (trx: Db) => Promise<{ value: T; undo: FtpUndo | null }>,
  ): Promise<T> {
    return this.changes.make(service, { folders }, work);
  }

  /** An account changed in place: its row before, kept to undo the change. */
  private async update(
    trx: Db,
    serviceId: number,
    id: number,
    set: Parameters<typeof ftpRepository.update>[3],
  ): Promise<{ value: Awaited<ReturnType<typeof ftpRepository.update>>; undo: FtpUndo }> {
    const before = await ftpRepository.find(trx, serviceId, id);
    if (!before) throw new NotFoundError();
    return { value: await ftpRepository.update(trx, serviceId, id, set), undo: { put: [before], drop: [] } };
  }

  /** Whether the service's FTP changes are all on its server (the FTP view shows it). */
  private applying(serviceId: number): Promise<FtpApplying> {
    return this.changes.applying(serviceId, { 'ftp.error.users_file': 'users_file' });
  }

  /** The service's FTP job now (the customer's "try again"): whether every change is on the server. */
  async applyNow(actor: Actor, id: number): Promise<{ main: FtpMainData; applied: boolean }> {
    const service = await this.service(actor, id, 'action');
    const applied = await this.changes.applyNow({ ...service, actor });
    return { main: await this.main(actor, id), applied };
  }

  /** Sends the job of every service with FTP changes still to apply (the round of pending changes). */
  reapply(): Promise<number> {
    return this.changes.reapply();
  }

  private async service(actor: Actor, id: number, need: AccessNeed) {
    const resource = await this.permissions.authorize(actor, id, 'service_ftp', need);
    return { id, domain: resource.referencePunycode };
  }

  private toDto(row: { id: number; login: string; folder: string; eliminable: number }, password = ''): FtpAccount {
    return { id: row.id, user: row.login, directorio: row.folder, password, eliminable: row.eliminable === 1 };
  }

  /**
   * The two stored forms of a password. bcryptjs writes `$2b$`; the same hash under `$2y$` (PHP's
   * name for the identical algorithm) is what ProFTPD's crypt(3) and most FTP tooling expect.
   */
  private async passwordColumns(password: string) {
    // bcryptjs loaded at the first password: the node agent builds this module's neighbours, never hashes.
    const { default: bcrypt } = await import('bcryptjs');
    const hash = await bcrypt.hash(password, 10);
    return { password_hash: hash.replace(/^\$2b\$/, '$2y$'), password_sealed: this.secrets.seal(password) };
  }

  async main(actor: Actor, id: number): Promise<FtpMainData> {
    const service = await this.service(actor, id, 'visible');
    const brand = await this.brands.byId(actor.brandId);
    // FTP serves the home: a service on a named web server is reached at that server
    const { web } = await new PlacementService(this.db, this.now).serversOf(id);
    return {
      applying: await this.applying(id),
      sftp: {
        host: `ftp.${service.domain}`,
        port: this.settings.sftpPort,
        login: await this.keys.serviceLogin(service.domain),
      },
      ftp: {
        host: `ftp.${service.domain}`,
        sslHost: web?.host ?? (brand.sslHost || `ftp.${service.domain}`),
        port: this.settings.ftpPort,
        webftp: !this.settings.webftpKey
          ? filesPagePath(id)
          : onServer(brand.webftpHost ? `https://${brand.webftpHost}/` : this.settings.webftpUrl, web),
      },
    };
  }

  /** Every account (the spec's call), or one page of them when the call asks for it. */
  async list(actor: Actor, params: FtpListParams): Promise<{ ftps: FtpAccount[]; total?: number }> {
    await this.service(actor, params.id, 'visible');
    const page = listPageOf(params);
    if (!page) return { ftps: (await ftpRepository.list(this.db, params.id)).map((row) => this.toDto(row)) };
    const { rows, total } = await ftpRepository.page(this.db, params.id, page);
    return { ftps: rows.map((row) => this.toDto(row)), total };
  }

  /**
   * One account with its password: "show password". The entry is shown to all who see FTP, but
   * the password is the account's whole power: only the FTP right reads it.
   */
  async get(actor: Actor, id: number, fid: number): Promise<FtpAccount> {
    await this.service(actor, id, 'secret');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    return this.toDto(row, this.secrets.open(row.password_sealed));
  }

  /**
   * The provider suspended the service or lifted it: ProFTPD's logins are the view's again (a
   * suspended service's are left out of it), its copy of them written anew where it keeps one.
   */
  async loginsChanged(service: { id: number; domain: string }): Promise<void> {
    await this.change(service, [], async () => ({ value: undefined, undo: null }));
  }

  async create(
    actor: Actor,
    id: number,
    params: { ftpUser: string; password: string; folder: string },
  ): Promise<FtpAccount> {
    const service = await this.service(actor, id, 'action');
    const user = params.ftpUser.trim().toLowerCase();
    const errors: FieldError[] = [];
    if (hasControlCharacters(params.ftpUser)) errors.push({ field: 'ftpUser', messageKey: 'validation.control_chars' });
    else if (user === '') errors.push({ field: 'ftpUser', messageKey: 'validation.required' });
    else if (user.length > FTP_USER_MAX) errors.push({ field: 'ftpUser', messageKey: 'ftp.error.user_long' });
    else if (!isFtpUserName(user)) errors.push({ field: 'ftpUser', messageKey: 'ftp.error.user' });
    errors.push(...checkFtpPassword(params.password));
    let folder = '';
    try {
      if (hasControlCharacters(params.folder)) throw FieldErrors.one('folder', 'validation.control_chars');
      folder = normaliseServiceFolder(params.folder.trim(), 'folder');
    } catch (error) {
      if (error instanceof FieldErrors) errors.push(...error.fields);
      else throw error;
    }
    if (errors.length > 0) throw new FieldErrors(errors);
    const login = `${user}@${service.domain}`;
    if (await ftpRepository.findByLogin(this.db, login)) throw FieldErrors.one('ftpUser', 'ftp.error.taken');
    return this.toDto(await this.provision({ ...service, actor }, { login, password: params.password, folder }));
  }

  /**
   * Writes an account whose input is already checked (the create call above, the demo seed):
   * both password forms, and its folder on the server.
   */
  async provision(
    service: ChangedService,
    account: { login: string; password: string; folder: string; eliminable?: boolean },
  ) {
    const passwords = await this.passwordColumns(account.password);
    return this.change(service, [account.folder], async (trx) => {
      await planLimits.admit(trx, service.id, 'ftpAccounts');
      const row = await ftpRepository.insert(trx, {
        service_id: service.id,
        login: account.login,
        folder: account.folder,
        ...passwords,
        home: this.driver.homeOf(service.domain, account.folder),
        eliminable: account.eliminable === false ? 0 : 1,
        created_at: this.now(),
      });
      return { value: row, undo: { put: [], drop: [row.id] } };
    });
  }

  /**
   * An account the provider's own tooling keeps (doctor's probe login, `panel doctor probes`), on
   * the whole home: made when missing, its password set again when it no longer matches.
   */
  async ensureAccount(serviceId: number, domain: string, login: string, password: string) {
    const user = login.slice(0, login.lastIndexOf('@'));
    const problem = checkFtpPassword(password)[0]?.messageKey;
    if (!isFtpUserName(user) || login !== `${user}@${domain}` || problem)
      throw new Error(`${login}: ${problem ?? `not an FTP login of ${domain}`}`);
    const service = { id: serviceId, domain };
    const found = await ftpRepository.findByLogin(this.db, login);
    if (!found) {
      await this.provision(service, { login, password, folder: '' });
      return 'made';
    }
    const row = await ftpRepository.find(this.db, serviceId, found.id);
    if (!row) throw new Error(`${login} belongs to another service`);
    if (this.secrets.open(row.password_sealed) === password) return 'kept';
    const passwords = await this.passwordColumns(password);
    await this.change(service, [], (trx) => this.update(trx, serviceId, row.id, passwords));
    return 'repaired';
  }

  /**
   * Many accounts of one service sharing one password (the scale data set): the password hashed
   * and sealed once (bcrypt per row would take minutes), the rows inserted a chunk at a time in
   * one change, each distinct folder made once on the server. Nothing kept to undo it: it is a
   * data set for a fresh database, seeded again if its server refuses it.
   */
  async provisionMany(service: ChangedService, accounts: { login: string; folder: string }[], password: string) {
    const passwords = await this.passwordColumns(password);
    const rows = accounts.map((account) => ({
      service_id: service.id,
      ...account,
      ...passwords,
      home: this.driver.homeOf(service.domain, account.folder),
      eliminable: 1,
      created_at: this.now(),
    }));
    const folders = [...new Set(accounts.map((account) => account.folder))];
    await this.change(service, folders, async (trx) => {
      await inChunks(rows, (chunk) => ftpRepository.insertMany(trx, chunk));
      return { value: undefined, undo: null };
    });
  }

  async saveFolder(actor: Actor, id: number, fid: number, folderTyped: string): Promise<FtpAccount> {
    const service = await this.service(actor, id, 'action');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    if (hasControlCharacters(folderTyped)) throw FieldErrors.one('folder', 'validation.control_chars');
    const folder = normaliseServiceFolder(folderTyped.trim(), 'folder');
    noteChangeDetail(actor.activity, {
      target: row.login,
      changes: changedFields({ folder: row.folder }, { folder }),
    });
    const home = this.driver.homeOf(service.domain, folder);
    return this.toDto(
      await this.change({ ...service, actor }, [folder], (trx) => this.update(trx, id, fid, { folder, home })),
    );
  }

  async changePassword(actor: Actor, id: number, fid: number, password: string): Promise<FtpAccount> {
    const service = await this.service(actor, id, 'action');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    const errors = checkFtpPassword(password);
    if (errors.length > 0) throw new FieldErrors(errors);
    const passwords = await this.passwordColumns(password);
    return this.toDto(await this.change({ ...service, actor }, [], (trx) => this.update(trx, id, fid, passwords)));
  }

  async remove(actor: Actor, id: number, fid: number): Promise<void> {
    const service = await this.service(actor, id, 'action');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('ftp.error.not_eliminable');
    noteChangeDetail(actor.activity, { target: row.login });
    // The files stay: they belong to the service's sites, not to the login.
    await this.change({ ...service, actor }, [], async (trx) => {
      const before = await ftpRepository.find(trx, id, fid);
      // its SFTP keys go with it (the foreign key): kept to come back if the change is refused
      const keys = await sftpKeysRepository.ofAccount(trx, id, fid);
      await ftpRepository.delete(trx, id, fid);
      return { value: undefined, undo: { put: before ? [before] : [], drop: [], keys: { put: keys, drop: [] } } };
    });
  }
  /**
   * WebFTP sign-on: a one-time token the browser posts to the brand's WebFTP with the login and the
   * folder to open. The WebFTP's server trades the token for the credentials (`redeemToken`), so the
   * password never reaches the browser. Shown to everyone who can see the FTP accounts, but a
   * WebFTP session writes the files: only the FTP right gets the token. Without a WebFTP of the
   * provider's (no shared key: none could redeem the token) the panel's own file manager is the
   * WebFTP: a page of the panel, rooted at the account's folder, with the session the user has.
   */
  async webftpLogin(actor: Actor, id: number, fid: number, initialDirectory: string): Promise<SignonForm> {
    await this.service(actor, id, 'secret');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    if (hasControlCharacters(initialDirectory)) throw FieldErrors.one('initialDirectory', 'validation.control_chars');
    const folder = normaliseServiceFolder(initialDirectory.trim(), 'initialDirectory');
    if (!this.settings.webftpKey) {
      return { action: filesPagePath(id), method: 'get', fields: { ftp: String(row.id), path: folder } };
    }
    const token = await this.signon.issue('webftp', row.id);
    const brand = await this.brands.byId(actor.brandId);
    const { web } = await new PlacementService(this.db, this.now).serversOf(id);
    return {
      action: onServer(brand.webftpHost ? `https://${brand.webftpHost}/` : this.settings.webftpUrl, web),
      method: 'post',
      fields: { user: row.login, token, initialDirectory: folder },
    };
  }

  /** For the WebFTP's server: the account a token opens, once. */
  async redeemToken(key: string, token: string) {
    if (!sharedKeyMatches(this.settings.webftpKey, key)) throw new ForbiddenError();
    const accountId = await this.signon.take('webftp', token);
    const row = accountId === undefined ? undefined : await ftpRepository.findById(this.db, accountId);
    if (!row) throw new NotFoundError('signon.error.token');
    const { web } = await new PlacementService(this.db, this.now).serversOf(row.service_id);
    return {
      user: row.login,
      password: this.secrets.open(row.password_sealed),
      host: web?.host ?? this.settings.ftpHost,
      port: this.settings.ftpPort,
    };
  }
}
