import type { AppConfig } from '../../config.ts';
import { type HomeWork, ServiceHomes } from '../homes/service-homes.ts';
import { EmbeddedFtpDriver } from './embedded.driver.ts';
import type { FtpDriver } from './ftp.driver.ts';
import { FtpUsersCopy } from './ftp-users-copy.ts';
import { ProFtpdDriver } from './proftpd.driver.ts';

/**
 * `folderOwnerOf` names the owner the sync gives account folders back to (its own user, see
 * modules/hosting/service-users.ts); without it PANEL_HOSTING_UID's. `work` makes the folders, as
 * the service's user; without it (reports only) none can be made.
 */
export function createFtpDriver(
  config: AppConfig,
  folderOwnerOf?: (domain: string) => Promise<{ uid: number } | undefined>,
  work?: HomeWork,
): FtpDriver {
  const hosting = config.hosting;
  const homes = new ServiceHomes(hosting.root as string, { uid: hosting.uid, gid: hosting.gid }, work);
  const owners = {
    root: hosting.root as string,
    webGid: hosting.gid,
    ...(folderOwnerOf ? { ownerOf: folderOwnerOf } : {}),
  };
  if (hosting.ftpDriver === 'proftpd') {
    return new ProFtpdDriver(homes, hosting.ftpUsersFile ? new FtpUsersCopy(hosting.ftpUsersFile) : undefined, owners);
  }
  return new EmbeddedFtpDriver(homes, owners);
}
