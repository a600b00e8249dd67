import type { Db } from '../../db/database.ts';
import { ftpRepository } from './ftp.repository.ts';

/** An FTP account's login and folder, for the file manager opened as its WebFTP. */
export async function findFtpAccountRoot(
  db: Db,
  serviceId: number,
  accountId: number,
): Promise<{ login: string; folder: string; home: string } | undefined> {
  const row = await ftpRepository.find(db, serviceId, accountId);
  return row && { login: row.login, folder: row.folder, home: row.home };
}
