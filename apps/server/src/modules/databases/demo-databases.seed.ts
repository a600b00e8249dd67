import type { Db } from '../../db/database.ts';
import { databasesRepository } from './databases.repository.ts';
import type { DatabasesService } from './databases.service.ts';

/**
 * Two databases on demo.test, once: the site's (not deletable) and a blog's. Only with the
 * embedded driver, where they are rows of the panel alone. With MariaDB the demo creates none:
 * the seed runs at every start of a fresh panel database, and it must not leave databases and
 * users on a real (often shared) server that nobody asked for.
 */
export async function seedDemoDatabases(
  db: Db,
  databases: DatabasesService,
  demo: { id: number; domain: string },
): Promise<void> {
  if (databases.live) return;
  if ((await databasesRepository.list(db, demo.id)).length > 0) return;
  await databases.provision(demo.id, demo.domain, { password: 'panel247-site-db', eliminable: false });
  await databases.provision(demo.id, demo.domain, { password: 'panel247-blog-db' });
}
