import type { AppConfig } from '../../config.ts';
import { type HomeWork, ServiceHomes } from '../homes/service-homes.ts';
import { EmbeddedFtpDriver } from './embedded.driver.ts';
import type { FtpDriver } from './ftp.driver.ts';
import { FtpUsersCopy } from './ftp-users-copy.ts';
import { ProFtpdDriver } from './proftpd.driver.ts';

/** `work` makes account folders, as the service's user; without it (reports only) none can be made. */
export function createFtpDriver(config: AppConfig, work?: HomeWork): FtpDriver {
  const hosting = config.hosting;
  const homes = new ServiceHomes(hosting.root as string, { uid: hosting.uid, gid: hosting.gid }, work);
  if (hosting.ftpDriver === 'proftpd') {
    return new ProFtpdDriver(homes, hosting.ftpUsersFile ? new FtpUsersCopy(hosting.ftpUsersFile) : undefined);
  }
  return new EmbeddedFtpDriver(homes);
}
