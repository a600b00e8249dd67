import { filesPagePath } from '@panel247/contract/files';
import type { FtpAccount, FtpListParams } from '@panel247/contract/ftp';
import { FTP_PASSWORD_MAX_BYTES, FTP_USER_MAX, ftpPasswordFits, isFtpUserName } from '@panel247/contract/ftp-rules';
import { servicePasswordProblem } from '@panel247/contract/password-rules';
import type { SignonForm } from '@panel247/contract/signon';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import bcrypt from 'bcryptjs';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { inChunks } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import { listPageOf } from '../../db/list-query.ts';
import type { FtpDriver } from '../../drivers/ftp/ftp.driver.ts';
import { normaliseServiceFolder } from '../../drivers/homes/service-homes.ts';
import { type FieldError, FieldErrors, ForbiddenError, fieldProblem, NotFoundError } from '../../errors.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import { changedFields } from '../activity/activity-summary.ts';
import type { Actor } from '../auth/actor.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { AccessNeed, PermissionService } from '../permission/permission.service.ts';
import { type SignonTokens, sharedKeyMatches } from '../signon/signon-tokens.ts';
import { ftpRepository } from './ftp.repository.ts';

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
 * driver's copy of it): a row written here logs in at once. The password is kept twice: a bcrypt
 * hash ProFTPD checks, and an AES-256-GCM copy for "show password" (never logged, never in lists).
 */
export class FtpService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly brands: BrandService,
    private readonly driver: FtpDriver,
    private readonly secrets: SecretBox,
    private readonly signon: SignonTokens,
    private readonly settings: { ftpPort: number; ftpHost: string; webftpUrl: string; webftpKey?: string | undefined },
    private readonly now: () => number,
  ) {}

  /** Hand-overs outside a change run one after another, so the last one wins with fresh rows. */
  private publishing: Promise<void> = Promise.resolve();

  /** Hands the FTP server the committed logins (at start): a no-op unless it reads a copy. */
  publishLogins(): Promise<void> {
    if (!this.driver.keepsCopy) return Promise.resolve();
    const next = this.publishing.then(async () => this.driver.publish(await ftpRepository.logins(this.db)));
    // a failed hand-over must not block the next one
    this.publishing = next.catch(() => undefined);
    return next;
  }

  /**
   * One FTP change: the rows written in a transaction and, when the server reads a copy, the
   * copy rewritten from that transaction before it commits. A copy that cannot be written rolls
   * the change back. (Not queued: on SQLite the transaction holds the only connection, so a
   * queued hand-over waiting for it would wait for ever.)
   */
  private change<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const result = await work(trx);
      if (this.driver.keepsCopy) await this.driver.publish(await ftpRepository.logins(trx));
      return result;
    });
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
    const hash = await bcrypt.hash(password, 10);
    return { password_hash: hash.replace(/^\$2b\$/, '$2y$'), password_sealed: this.secrets.seal(password) };
  }

  async main(actor: Actor, id: number) {
    const service = await this.service(actor, id, 'visible');
    const brand = await this.brands.byId(actor.brandId);
    return {
      ftp: {
        host: `ftp.${service.domain}`,
        sslHost: brand.sslHost || `ftp.${service.domain}`,
        port: this.settings.ftpPort,
        webftp: !this.settings.webftpKey
          ? filesPagePath(id)
          : brand.webftpHost
            ? `https://${brand.webftpHost}/`
            : this.settings.webftpUrl,
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
    return this.toDto(await this.provision(id, service.domain, { login, password: params.password, folder }));
  }

  /**
   * Writes an account whose input is already checked (the create call above, the demo seed): its
   * home folder, both password forms, and ProFTPD's copy.
   */
  async provision(
    serviceId: number,
    domain: string,
    account: { login: string; password: string; folder: string; eliminable?: boolean },
  ) {
    const home = await this.driver.prepareHome(domain, account.folder, 'folder');
    const passwords = await this.passwordColumns(account.password);
    return this.change((trx) =>
      ftpRepository.insert(trx, {
        service_id: serviceId,
        login: account.login,
        folder: account.folder,
        ...passwords,
        home,
        eliminable: account.eliminable === false ? 0 : 1,
        created_at: this.now(),
      }),
    );
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
    const found = await ftpRepository.findByLogin(this.db, login);
    if (!found) {
      await this.provision(serviceId, domain, { login, password, folder: '' });
      return 'made';
    }
    const row = await ftpRepository.find(this.db, serviceId, found.id);
    if (!row) throw new Error(`${login} belongs to another service`);
    if (this.secrets.open(row.password_sealed) === password) return 'kept';
    const passwords = await this.passwordColumns(password);
    await this.change((trx) => ftpRepository.update(trx, serviceId, row.id, passwords));
    return 'repaired';
  }

  /**
   * Many accounts of one service sharing one password (the scale data set): the password hashed
   * and sealed once (bcrypt per row would take minutes), each home prepared, the rows inserted a
   * chunk at a time in one change.
   */
  async provisionMany(
    serviceId: number,
    domain: string,
    accounts: { login: string; folder: string }[],
    password: string,
  ) {
    const passwords = await this.passwordColumns(password);
    const rows: Parameters<typeof ftpRepository.insertMany>[1] = [];
    for (const account of accounts) {
      const home = await this.driver.prepareHome(domain, account.folder, 'folder');
      rows.push({ service_id: serviceId, ...account, ...passwords, home, eliminable: 1, created_at: this.now() });
    }
    await this.change((trx) => inChunks(rows, (chunk) => ftpRepository.insertMany(trx, chunk)));
  }

  async saveFolder(actor: Actor, id: number, fid: number, folderTyped: string): Promise<FtpAccount> {
    const service = await this.service(actor, id, 'action');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    if (hasControlCharacters(folderTyped)) throw FieldErrors.one('folder', 'validation.control_chars');
    const folder = normaliseServiceFolder(folderTyped.trim(), 'folder');
    const home = await this.driver.prepareHome(service.domain, folder, 'folder');
    noteChangeDetail(actor.activity, {
      target: row.login,
      changes: changedFields({ folder: row.folder }, { folder }),
    });
    return this.toDto(await this.change((trx) => ftpRepository.update(trx, id, fid, { folder, home })));
  }

  async changePassword(actor: Actor, id: number, fid: number, password: string): Promise<FtpAccount> {
    await this.service(actor, id, 'action');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    const errors = checkFtpPassword(password);
    if (errors.length > 0) throw new FieldErrors(errors);
    const passwords = await this.passwordColumns(password);
    return this.toDto(await this.change((trx) => ftpRepository.update(trx, id, fid, passwords)));
  }

  async remove(actor: Actor, id: number, fid: number): Promise<void> {
    await this.service(actor, id, 'action');
    const row = await ftpRepository.find(this.db, id, fid);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('ftp.error.not_eliminable');
    noteChangeDetail(actor.activity, { target: row.login });
    // The files stay: they belong to the service's sites, not to the login.
    await this.change((trx) => ftpRepository.delete(trx, id, fid));
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
    return {
      action: brand.webftpHost ? `https://${brand.webftpHost}/` : this.settings.webftpUrl,
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
    return {
      user: row.login,
      password: this.secrets.open(row.password_sealed),
      host: this.settings.ftpHost,
      port: this.settings.ftpPort,
    };
  }
}
