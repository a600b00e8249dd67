import type { AppConfig } from '../../config.ts';
import type { DatabaseDriver } from './database.driver.ts';
import { EmbeddedDatabaseDriver } from './embedded.driver.ts';
import { MariaDbDriver } from './mariadb.driver.ts';

export function createDatabaseDriver(config: AppConfig): DatabaseDriver {
  if (config.databases.driver === 'mariadb') {
    return new MariaDbDriver({
      url: config.databases.url as string,
      localHosts: config.databases.localHosts,
      dumpCommand: config.databases.dumpCommand,
    });
  }
  return new EmbeddedDatabaseDriver();
}
