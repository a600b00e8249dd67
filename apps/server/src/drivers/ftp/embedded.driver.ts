import type { ServiceHomes } from '../homes/service-homes.ts';
import type { SyncOptions } from '../sync-options.ts';
import type { FtpDrift, FtpDriver, FtpHomeDrift, FtpLogin } from './ftp.driver.ts';

/**
 * Who the accounts' folders belong to. ProFTPD writes as the login's uid (`ftp_users_view`: the
 * service's own user, or 33 for a service without one), so that uid owns them, with the web
 * server's group, so nginx reads what is uploaded.
 */
export interface FtpFolderOwners {
  /** PANEL_HOSTING_ROOT. */
  root: string;
  /** PANEL_HOSTING_GID: the web server's group. */
  webGid: number;
  /** The owner of a new folder in the home of the service of `domain`: its user; undefined: the hosting user's. */
  ownerOf?: (domain: string) => Promise<{ uid: number } | undefined>;
}

/**
 * The embedded default: the accounts' home folders only, with no FTP server to tell. Also the
 * base of the ProFTPD driver, which adds the copy of the logins ProFTPD reads on SQLite.
 */
export class EmbeddedFtpDriver implements FtpDriver {
  readonly kind: FtpDriver['kind'] = 'embedded';
  readonly keepsCopy: boolean = false;

  constructor(
    protected readonly homes: ServiceHomes,
    protected readonly owners?: FtpFolderOwners,
  ) {}

  /** The homes whose folders are made and given back to `uid` (and the web server's group). */
  private homesOf(uid: number): ServiceHomes {
    return this.owners ? this.homes.withOwner({ uid, gid: this.owners.webGid }) : this.homes;
  }

  /** The folder is made by the service's worker, as the service's user (see ServiceHomes). */
  async prepareHome(domain: string, folder: string, field: string): Promise<string> {
    const owner = await this.owners?.ownerOf?.(domain);
    return (owner ? this.homesOf(owner.uid) : this.homes).prepare(domain, folder, field);
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
      const found = await this.homesOf(login.uid).repair(login.homedir, options);
      if (found) drift.push({ login: login.userid, home: login.homedir, ...found });
    }
    return drift;
  }
}
