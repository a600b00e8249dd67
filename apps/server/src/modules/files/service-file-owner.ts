import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { type ConfinedWorkers, sharedWorkers } from '../../drivers/files/confined/confined-workers.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import { ServiceFiles } from '../../drivers/files/service-files.ts';
import type { HomeWork } from '../../drivers/homes/service-homes.ts';
import { createServiceUsers } from '../hosting/service-users.ts';

/**
 * Whose rights work in a service's home runs with: the file manager, restores, the installer,
 * the folders of sites and FTP accounts. With service users (the system driver), the service's
 * own user and group. Without, a panel running as root still leaves its rights behind: the work
 * runs as the shared hosting user (PANEL_HOSTING_UID/GID), which cannot read the panel's data; a
 * panel that is not root cannot switch and keeps its own.
 */
function owners(db: Db, config: AppConfig, now: () => number) {
  const users = createServiceUsers(db, config, now);
  const shared = { uid: config.hosting.uid, gid: config.hosting.gid };
  const orShared = (owner: FileOwner | undefined) => owner ?? (process.getuid?.() === 0 ? shared : undefined);
  return {
    byService: async (serviceId: number) => orShared(await users.ownerOf(serviceId)),
    byDomain: async (domain: string) => orShared(await users.ownerOfDomain(domain)),
  };
}

const seconds = () => Math.floor(Date.now() / 1000);

export function serviceFileOwner(
  db: Db,
  config: AppConfig,
  now: () => number = seconds,
): (serviceId: number) => Promise<FileOwner | undefined> {
  return owners(db, config, now).byService;
}

/** What ServiceHomes does below a home (its folders, its usage), by the service's worker. */
export function createHomeWork(
  db: Db,
  config: AppConfig,
  workers: ConfinedWorkers = sharedWorkers(),
  now: () => number = seconds,
): HomeWork {
  const files = new ServiceFiles(workers, path.join(config.dataDir, 'uploads'));
  const { byDomain } = owners(db, config, now);
  return {
    makeFolders: async (domain, home, relative) =>
      files.prepare({ home, folder: '', owner: await byDomain(domain) }, relative),
    usage: async (domain, home) => files.usage({ home, folder: '', owner: await byDomain(domain) }),
  };
}
