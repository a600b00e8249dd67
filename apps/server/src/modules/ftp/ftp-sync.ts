import type { Db } from '../../db/database.ts';
import type { FtpDrift, FtpDriver } from '../../drivers/ftp/ftp.driver.ts';
import { ftpRepository } from './ftp.repository.ts';

/**
 * `panel ftp sync`: the FTP driver compares the server's side (its copy of the logins, the home
 * folders) with the logins as ProFTPD sees them and repairs it. Needs neither a brand nor the
 * secret key, unlike the accounts' service.
 */
export async function syncFtpLogins(db: Db, driver: FtpDriver): Promise<FtpDrift> {
  return driver.sync(await ftpRepository.logins(db));
}
