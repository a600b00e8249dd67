import type { Db } from '../../db/database.ts';
import { ftpRepository } from './ftp.repository.ts';
import type { FtpService } from './ftp.service.ts';

/**
 * Two FTP accounts on demo.test, once: the service's main account (the whole home, not deletable)
 * and one limited to the blog folder.
 */
export async function seedDemoFtp(db: Db, ftp: FtpService, demo: { id: number; domain: string }): Promise<void> {
  if ((await ftpRepository.list(db, demo.id)).length > 0) return;
  await ftp.provision(demo, {
    login: `web@${demo.domain}`,
    password: 'panel247-ftp',
    folder: '',
    eliminable: false,
  });
  await ftp.provision(demo, {
    login: `blog@${demo.domain}`,
    password: 'panel247-blog',
    folder: 'blog',
  });
}
