import { FTP_VIEWS, repairDaemonViews, type ViewDrift } from '../../db/daemon-views.ts';
import type { Db } from '../../db/database.ts';
import type { FtpDrift, FtpDriver } from '../../drivers/ftp/ftp.driver.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { ftpRepository } from './ftp.repository.ts';

/**
 * `panel ftp sync`: the FTP driver compares the server's side (its copy of the logins, the home
 * folders) with the logins as ProFTPD sees them and repairs it, after putting back
 * `ftp_users_view` if it is gone. Needs neither a brand nor the secret key, unlike the accounts'
 * service.
 */
export async function syncFtpLogins(
  db: Db,
  driver: FtpDriver,
  options: SyncOptions,
  /** This server (PANEL_NODE): its ProFTPD serves the logins of the services whose home it holds. */
  node: string,
): Promise<FtpDrift & { views: ViewDrift[] }> {
  // The view first: the logins are read from it. While it is missing (a dry run, or a failed
  // repair) there are no logins to compare, and the view is the drift to report.
  const views = await repairDaemonViews(db, FTP_VIEWS, options);
  if (views.some((view) => !view.repaired))
    return { file: null, missing: [], extra: [], changed: [], homes: [], views };
  return { ...(await driver.sync(await ftpRepository.logins(db, node), options)), views };
}
