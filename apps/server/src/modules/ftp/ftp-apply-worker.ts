import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { FtpAccountTable } from '../../db/schema.ts';
import type { FtpDriver } from '../../drivers/ftp/ftp.driver.ts';
import { applyServiceJob } from '../../jobs/apply-service.jobs.ts';
import { ServiceChangeWorker, type ServiceRef } from '../../jobs/service-change-worker.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { ftpRepository } from './ftp.repository.ts';
import { type SshKeyRow, sftpKeysRepository } from './sftp-keys.repository.ts';

/** A hosting service's pending FTP changes to its FTP server (FtpApplyWorker). */
export const APPLY_FTP = applyServiceJob('ftp');

/** What one FTP change needs on the node: the account folders it brings in (relative, normalised). */
export interface FtpChange {
  folders: string[];
}

export type FtpAccountRow = Selectable<FtpAccountTable>;

/**
 * What an FTP change replaced: the accounts as they were before it, and those it added; the same
 * for the SFTP keys (an account's removal takes its keys with it: they come back with it).
 */
export interface FtpUndo {
  put: FtpAccountRow[];
  drop: number[];
  keys?: { put: SshKeyRow[]; drop: number[] };
}

/**
 * What a hosting service's `ftp.apply-service` job does (see ServiceChangeWorker): the account
 * folders a change brings in, made by the service's worker as the service's user (a link planted
 * on the way refuses the change on its folder), then, when ProFTPD reads a copy of the logins
 * (a panel on SQLite), the whole copy written again from the committed rows. Both are the
 * database's state, so applying a change twice changes nothing.
 */
export class FtpApplyWorker extends ServiceChangeWorker<FtpChange, FtpUndo> {
  protected readonly failureKey = 'ftp.error.apply';

  constructor(
    db: Db,
    private readonly driver: FtpDriver,
    now: () => number,
    /** This server (PANEL_NODE): the copy it writes holds the logins of the homes it holds. */
    private readonly node: string,
    landed?: WorkLanded,
  ) {
    super(db, 'ftp', now, landed);
  }

  protected async apply(service: ServiceRef, change: FtpChange): Promise<void> {
    for (const folder of change.folders) await this.driver.prepareHome(service.domain, folder, 'folder');
    if (this.driver.keepsCopy) await this.driver.publish(await ftpRepository.logins(this.db, this.node));
  }

  /** Hands ProFTPD the committed logins as the node starts: a no-op unless it reads a copy. */
  async publishAll(): Promise<void> {
    if (this.driver.keepsCopy) await this.driver.publish(await ftpRepository.logins(this.db, this.node));
  }

  protected async restore(trx: Db, serviceId: number, undo: FtpUndo): Promise<void> {
    await ftpRepository.putBack(trx, serviceId, undo.put, undo.drop);
    if (undo.keys) await sftpKeysRepository.putBack(trx, serviceId, undo.keys.put, undo.keys.drop);
  }

  protected whole(): FtpChange {
    return { folders: [] };
  }
}
