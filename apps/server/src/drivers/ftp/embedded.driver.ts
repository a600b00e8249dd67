import path from 'node:path';
import type { ServiceHomes } from '../homes/service-homes.ts';
import type { SyncOptions } from '../sync-options.ts';
import type { FtpDrift, FtpDriver, FtpHomeDrift, FtpLogin } from './ftp.driver.ts';

/**
 * The embedded default: the accounts' home folders only, with no FTP server to tell. Also the
 * base of the ProFTPD driver, which adds the copy of the logins ProFTPD reads on SQLite.
 */
export class EmbeddedFtpDriver implements FtpDriver {
  readonly kind: FtpDriver['kind'] = 'embedded';
  readonly keepsCopy: boolean = false;

  constructor(protected readonly homes: ServiceHomes) {}

  homeOf(domain: string, folder: string): string {
    const home = this.homes.home(domain);
    return folder === '' ? home : path.join(home, folder);
  }

  /** The folder is made by the service's worker, as the service's user (see ServiceHomes). */
  async prepareHome(domain: string, folder: string, field: string): Promise<string> {
    return this.homes.prepare(domain, folder, field);
  }

  async publish(_logins: FtpLogin[]): Promise<void> {}

  async sync(logins: FtpLogin[], options: SyncOptions): Promise<FtpDrift> {
    return { file: null, missing: [], extra: [], changed: [], homes: await this.repairHomes(logins, options) };
  }

  /**
   * A login whose home folder is gone (moved away, a restore that missed it) is refused by the
   * FTP server (530); one owned by someone else than the login's uid cannot upload. Both are put
   * right here.
   */
  protected async repairHomes(logins: FtpLogin[], options: SyncOptions): Promise<FtpHomeDrift[]> {
    const drift: FtpHomeDrift[] = [];
    for (const login of [...logins].sort((a, b) => a.userid.localeCompare(b.userid))) {
      // Given back to the user and group the login writes as (ftp_users_view: its service's own, or 33).
      const owner = { uid: login.uid, gid: login.gid };
      const found = await this.homes.withOwner(owner).repair(login.homedir, options);
      if (found) drift.push({ login: login.userid, home: login.homedir, ...found });
    }
    return drift;
  }
}
