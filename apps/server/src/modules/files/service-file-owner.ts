import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { sharedWorkers } from '../../drivers/files/confined/confined-workers.ts';
import type { FileOwner, FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { ServiceFiles } from '../../drivers/files/service-files.ts';
import { type HomeWork, ServiceHomes } from '../../drivers/homes/service-homes.ts';
import type { NodeHomes } from '../../node-channel/channel-server.ts';
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

/** The services' homes as a node agent knows them, for the node channel (node-channel/channel-server.ts). */
export function nodeHomes(db: Db, config: AppConfig, now: () => number = seconds): NodeHomes {
  const root = config.hosting.root as string;
  // Only the home itself, in the hosting root (the panel's, where no customer writes): no worker needed.
  const homes = new ServiceHomes(root, { uid: config.hosting.uid, gid: config.hosting.gid });
  const users = createServiceUsers(db, config, now);
  return {
    root,
    ensure: async (domain) => {
      await homes.prepare(domain, '', 'path');
    },
    hosted: (domain) => users.hosts(domain),
    ownerOf: owners(db, config, now).byDomain,
  };
}

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
  workers: FileWorkers = sharedWorkers(),
  now: () => number = seconds,
): HomeWork {
  const files = new ServiceFiles(workers, path.join(config.dataDir, 'uploads'));
  const { byDomain } = owners(db, config, now);
  return {
    holdsHome: (domain) => workers.holdsHome(domain),
    makeFolders: async (domain, home, relative) =>
      files.prepare({ home, folder: '', owner: await byDomain(domain) }, relative),
    usage: async (domain, home) => files.usage({ home, folder: '', owner: await byDomain(domain) }),
  };
}
