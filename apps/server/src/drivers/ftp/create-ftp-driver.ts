import type { AppConfig } from '../../config.ts';
import { ServiceHomes } from '../homes/service-homes.ts';
import { EmbeddedFtpDriver } from './embedded.driver.ts';
import type { FtpDriver } from './ftp.driver.ts';
import { FtpUsersCopy } from './ftp-users-copy.ts';
import { ProFtpdDriver } from './proftpd.driver.ts';

export function createFtpDriver(config: AppConfig): FtpDriver {
  const hosting = config.hosting;
  const homes = new ServiceHomes(hosting.root as string, { uid: hosting.uid, gid: hosting.gid });
  if (hosting.ftpDriver === 'proftpd') {
    return new ProFtpdDriver(homes, hosting.ftpUsersFile ? new FtpUsersCopy(hosting.ftpUsersFile) : undefined);
  }
  return new EmbeddedFtpDriver(homes);
}
