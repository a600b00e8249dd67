import type { Db } from '../../db/database.ts';
import { ddbbRepository } from './ddbb.repository.ts';
import type { DdbbService } from './ddbb.service.ts';

/**
 * Two databases on demo.test, once: the site's (not deletable) and a blog's. Only with the
 * embedded driver, where they are rows of the panel alone. With MariaDB the demo creates none:
 * the seed runs at every start of a fresh panel database, and it must not leave databases and
 * users on a real (often shared) server that nobody asked for.
 */
export async function seedDemoDatabases(
  db: Db,
  ddbb: DdbbService,
  demo: { id: number; domain: string },
): Promise<void> {
  if (ddbb.live) return;
  if ((await ddbbRepository.list(db, demo.id)).length > 0) return;
  await ddbb.provision(demo.id, demo.domain, { password: 'panel247-site-db', eliminable: false });
  await ddbb.provision(demo.id, demo.domain, { password: 'panel247-blog-db' });
}
