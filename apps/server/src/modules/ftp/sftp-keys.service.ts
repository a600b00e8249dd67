import type { SshKey, SshKeyListData } from '@panel247/contract/sftp-keys';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { Db } from '../../db/database.ts';
import { FieldErrors, NotFoundError } from '../../errors.ts';
import type { ChangedService, ServiceChanges } from '../../jobs/service-changes.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import type { Actor } from '../auth/actor.ts';
import type { AccessNeed, PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { ftpRepository } from './ftp.repository.ts';
import type { FtpUndo } from './ftp-apply-worker.ts';
import { type SshKeyRow, sftpKeysRepository } from './sftp-keys.repository.ts';
import { parseSshPublicKey } from './ssh-public-key.ts';

/**
 * The SSH keys a service's customer adds for SFTP, each for one login: an FTP account, or the
 * service's own login (its domain, on the whole home, by key only). ProFTPD reads them through
 * `sftp_keys_view` at each login, so a key removed opens nothing from that moment. They are FTP
 * changes like the accounts (the same right, `service_ftp`, and the same job, which rewrites
 * ProFTPD's copy on SQLite within the change).
 */
export class SftpKeysService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly changes: ServiceChanges,
    private readonly now: () => number,
  ) {}

  private async service(actor: Actor, id: number, need: AccessNeed) {
    const resource = await this.permissions.authorize(actor, id, 'service_ftp', need);
    return { id, domain: resource.referencePunycode };
  }

  private change<T>(service: ChangedService, work: (trx: Db) => Promise<{ value: T; undo: FtpUndo }>): Promise<T> {
    return this.changes.make(service, { folders: [] }, work);
  }

  private toDto(row: SshKeyRow, login: string): SshKey {
    return {
      id: row.id,
      name: row.name,
      algorithm: row.algorithm,
      bits: row.bits,
      fingerprint: row.fingerprint,
      login,
      ftpId: row.ftp_account_id,
      createdAt: Number(row.created_at),
    };
  }

  /** Whether the service has its own SFTP login (the FTP page shows it, with the keys' form). */
  serviceLogin(domain: string): Promise<string | null> {
    return sftpKeysRepository.hasServiceLogin(this.db, domain).then((has) => (has ? domain : null));
  }

  async list(actor: Actor, id: number): Promise<SshKeyListData> {
    const service = await this.service(actor, id, 'visible');
    const rows = await sftpKeysRepository.list(this.db, id);
    const { sshKeys } = await planLimits.of(this.db, id);
    return { keys: rows.map((row) => this.toDto(row, row.account_login ?? service.domain)), maxKeys: sshKeys };
  }

  async add(actor: Actor, id: number, params: { name: string; key: string; ftpId: number | '' }): Promise<SshKey> {
    const service = await this.service(actor, id, 'action');
    const errors: FieldErrors['fields'] = [];
    let parsed: ReturnType<typeof parseSshPublicKey> | undefined;
    try {
      parsed = parseSshPublicKey(params.key);
    } catch (error) {
      if (!(error instanceof FieldErrors)) throw error;
      errors.push(...error.fields);
    }
    const name = params.name.trim();
    if (hasControlCharacters(params.name)) errors.push({ field: 'name', messageKey: 'validation.control_chars' });
    const ftpId = params.ftpId === '' ? null : params.ftpId;
    const account = ftpId === null ? undefined : await ftpRepository.find(this.db, id, ftpId);
    if (ftpId !== null && !account) errors.push({ field: 'ftpId', messageKey: 'ftp.error.key_login' });
    if (ftpId === null && (await this.serviceLogin(service.domain)) === null)
      errors.push({ field: 'ftpId', messageKey: 'ftp.error.key_no_service_login' });
    if (errors.length > 0 || !parsed) throw new FieldErrors(errors);
    const key = parsed;
    const login = account?.login ?? service.domain;
    noteChangeDetail(actor.activity, { target: `${login} ${key.fingerprint}` });
    const row = await this.change({ ...service, actor }, async (trx) => {
      await planLimits.admit(trx, id, 'sshKeys');
      // the account removed since it was checked (its key would fail its foreign key)
      if (ftpId !== null && !(await ftpRepository.find(trx, id, ftpId)))
        throw FieldErrors.one('ftpId', 'ftp.error.key_login');
      // checked with the service's turn taken: two adds of one key cannot both pass
      if (await sftpKeysRepository.has(trx, id, ftpId, key.fingerprint))
        throw FieldErrors.one('key', 'ftp.error.key_taken', { login });
      const added = await sftpKeysRepository.insert(trx, {
        service_id: id,
        ftp_account_id: ftpId,
        name: name || key.comment || key.algorithm,
        algorithm: key.algorithm,
        bits: key.bits,
        fingerprint: key.fingerprint,
        public_key: key.publicKey,
        rfc4716: key.rfc4716,
        created_at: this.now(),
      });
      return { value: added, undo: { put: [], drop: [], keys: { put: [], drop: [added.id] } } };
    });
    return this.toDto(row, login);
  }

  async remove(actor: Actor, id: number, kid: number): Promise<void> {
    const service = await this.service(actor, id, 'action');
    const row = await sftpKeysRepository.find(this.db, id, kid);
    if (!row) throw new NotFoundError();
    noteChangeDetail(actor.activity, { target: `${row.name} ${row.fingerprint}` });
    await this.change({ ...service, actor }, async (trx) => {
      const before = await sftpKeysRepository.find(trx, id, kid);
      await sftpKeysRepository.delete(trx, id, kid);
      return { value: undefined, undo: { put: [], drop: [], keys: { put: before ? [before] : [], drop: [] } } };
    });
  }
}
