import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { sharedWorkers } from '../../drivers/files/confined/confined-workers.ts';
import { Maildirs } from '../../drivers/mail/maildirs.ts';
import { createDatabasesNode } from '../../modules/databases/create-databases-service.ts';
import { databasesRepository } from '../../modules/databases/databases.repository.ts';
import { nodeHomes, serviceFileOwner } from '../../modules/files/service-file-owner.ts';
import { nodeMailFolders } from '../../modules/mail/mail-folders.ts';
import { type DatabaseEnd, databasesCopy, filesCopy, type PartCopies } from '../../modules/nodes/part-copies.ts';
import { UNNAMED_NODE } from '../../modules/nodes/placement-roles.ts';
import type { NodeChannel } from '../../node-channel/channel-client.ts';
import type { NodeChannels } from '../../node-channel/node-channels.ts';
import { RemoteFileWorkers } from '../../node-channel/remote-file-workers.ts';

/**
 * How `panel node move` reaches each part's data on the two servers: a named server through its
 * agent's channel; the unnamed machine through its agent's channel too when it runs apart
 * (PANEL_AGENT=separate), else in this process (its confined file workers, its databases driver).
 */
export function moveCopies(
  db: Db,
  config: AppConfig,
  secretKey: Buffer,
  now: () => number,
  channels: NodeChannels,
  unnamedAgent: NodeChannel | null,
): { copies: PartCopies; close(): Promise<void> } {
  const channelOf = (node: string) =>
    node === UNNAMED_NODE ? Promise.resolve(unnamedAgent) : channels.forNode(node).then((channel) => channel);
  const files = (root: string, area: 'home' | 'mail') => async (node: string) => {
    const channel = await channelOf(node);
    return channel ? new RemoteFileWorkers(channel, root, area) : sharedWorkers();
  };
  const hostingRoot = config.hosting.root as string;
  const mailRoot = config.mail.root as string;
  const homeOwner = serviceFileOwner(db, config);
  let localDatabases: ReturnType<typeof createDatabasesNode> | undefined;
  const databasesOn = async (node: string): Promise<DatabaseEnd> => {
    const channel = await channelOf(node);
    if (channel)
      return {
        prepare: (serviceId) => channel.write('databases.prepare', [serviceId]),
        dump: (name) => channel.readStream('databases.dump', [name]),
        load: (serviceId, name, sql) => channel.write('databases.load', [serviceId, name], sql),
      };
    localDatabases ??= createDatabasesNode(db, config, secretKey, now);
    const local = localDatabases;
    return {
      prepare: (serviceId) => local.moves.prepare(serviceId),
      dump: (name) => local.driver.dump(name),
      load: (serviceId, name, sql) => local.moves.load(serviceId, name, sql),
    };
  };
  return {
    copies: {
      web: filesCopy({
        filesOn: files(hostingRoot, 'home'),
        root: hostingRoot,
        // this machine's home, when the unnamed machine is here (its agent makes its own)
        prepareUnnamed: async (domain) => {
          if (!unnamedAgent) await nodeHomes(db, config, now).ensure(domain);
        },
        ownerOf: homeOwner,
      }),
      mail: filesCopy({
        filesOn: files(mailRoot, 'mail'),
        root: mailRoot,
        prepareUnnamed: async (domain) => {
          if (!unnamedAgent) await nodeMailFolders(db, config)?.ensure(domain);
        },
        ownerOf: async () => new Maildirs(mailRoot).owner(),
      }),
      databases: databasesCopy({
        on: databasesOn,
        namesOf: async (serviceId) => (await databasesRepository.list(db, serviceId)).map((row) => row.name),
      }),
    },
    close: async () => localDatabases?.driver.close(),
  };
}
