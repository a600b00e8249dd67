import { FTP_USER_MAX, isFtpUserName } from '@panel247/contract/ftp-rules';
import { isServiceFolder } from '@panel247/contract/hosting-rules';
import { numbered } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import { ftpRepository } from './ftp.repository.ts';
import type { FtpService } from './ftp.service.ts';

/**
 * The scale data set's FTP accounts: `count` logins (ftp00001@domain…), each in `folderOf(i)`,
 * sharing one password (hashed once). Once: a service that has FTP accounts is left alone.
 * Returns how many went in.
 */
export async function seedScaleFtp(
  db: Db,
  ftp: FtpService,
  service: { id: number; domain: string },
  count: number,
  folderOf: (i: number) => string,
  password: string,
): Promise<number> {
  if ((await ftpRepository.list(db, service.id)).length > 0) return 0;
  const accounts = Array.from({ length: count }, (_, i) => {
    const user = numbered('ftp', i + 1, count);
    const folder = folderOf(i + 1);
    if (user.length > FTP_USER_MAX || !isFtpUserName(user) || !isServiceFolder(folder)) {
      throw new Error(`Invalid scale FTP account ${user} in ${folder}`);
    }
    return { login: `${user}@${service.domain}`, folder };
  });
  await ftp.provisionMany(service, accounts, password);
  return accounts.length;
}
