import { DaemonError } from '../../errors.ts';
import type { ServiceHomes } from '../homes/service-homes.ts';
import type { SyncOptions } from '../sync-options.ts';
import { EmbeddedFtpDriver } from './embedded.driver.ts';
import type { FtpDrift, FtpDriver, FtpLogin } from './ftp.driver.ts';
import type { FtpUsersCopy } from './ftp-users-copy.ts';

/**
 * ProFTPD. On PostgreSQL it reads `ftp_users_view` itself (deploy/proftpd), so only the home
 * folders are the driver's; on SQLite it reads the copy this driver keeps (PANEL_FTP_USERS_FILE),
 * rewritten inside every change.
 */
export class ProFtpdDriver extends EmbeddedFtpDriver {
  override readonly kind: FtpDriver['kind'] = 'proftpd';
  override readonly keepsCopy: boolean;

  constructor(
    homes: ServiceHomes,
    private readonly copy?: FtpUsersCopy,
  ) {
    super(homes);
    this.keepsCopy = copy !== undefined;
  }

  override async publish(logins: FtpLogin[]): Promise<void> {
    if (!this.copy) return;
    try {
      this.copy.write(logins);
    } catch (error) {
      throw new DaemonError('ftp.error.users_file', `${this.copy.file}: ${(error as Error).message}`);
    }
  }

  override async sync(logins: FtpLogin[], options: SyncOptions): Promise<FtpDrift> {
    const homes = await this.repairHomes(logins, options);
    if (!this.copy) return { file: null, missing: [], extra: [], changed: [], homes };
    const drift = this.copy.drift(logins);
    if (!options.dryRun) await this.publish(logins);
    return { file: this.copy.file, ...drift, homes };
  }
}
