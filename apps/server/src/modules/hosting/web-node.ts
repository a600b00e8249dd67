import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { ServiceHomes } from '../../drivers/homes/service-homes.ts';
import { createWebDriver } from '../../drivers/web/create-web-driver.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import { createHomeWork } from '../files/service-file-owner.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { type HostingSettings, hostingSettingsOf } from './hosting-settings.ts';
import { createServiceUsers, type ServiceUsers } from './service-users.ts';
import { WebApplyWorker } from './web-apply-worker.ts';
import { WebModel } from './web-model.ts';

/** A machine's web side: its web driver, the services' homes and users, and what applies their changes. */
export interface WebNode {
  driver: WebDriver;
  homes: ServiceHomes;
  /** The sites' private keys' box. */
  keys: SecretBox;
  users: ServiceUsers;
  settings: HostingSettings;
  model: WebModel;
  /** What a service's `web.apply-service` job runs. */
  worker: WebApplyWorker;
}

/**
 * The web parts a node needs to apply web changes, and only those: the node agent builds this
 * alone (no certificates, databases or overview), the panel's hosting services build on it.
 */
export function createWebNode(
  db: Db,
  config: AppConfig,
  secretKey: Buffer,
  now: () => number,
  options: { driver?: WebDriver; users?: ServiceUsers; landed?: WorkLanded; workers?: FileWorkers } = {},
): WebNode {
  const driver = options.driver ?? createWebDriver(config);
  const homes = new ServiceHomes(
    config.hosting.root as string,
    { uid: config.hosting.uid, gid: config.hosting.gid },
    createHomeWork(db, config, options.workers),
  );
  const keys = new SecretBox(secretKey, 'site-private-key');
  const settings = hostingSettingsOf(config);
  const users = options.users ?? createServiceUsers(db, config, now);
  const model = new WebModel(homes, keys, settings, users);
  return {
    driver,
    homes,
    keys,
    users,
    settings,
    model,
    worker: new WebApplyWorker(db, driver, model, now, options.landed, users),
  };
}
