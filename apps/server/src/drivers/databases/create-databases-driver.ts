import type { AppConfig } from '../../config.ts';
import type { DatabasesDriver } from './databases.driver.ts';
import { EmbeddedDatabasesDriver } from './embedded.driver.ts';
import { MariaDbDriver } from './mariadb.driver.ts';

export function createDatabasesDriver(config: AppConfig): DatabasesDriver {
  if (config.databases.driver === 'mariadb') {
    return new MariaDbDriver({
      url: config.databases.url as string,
      localHosts: config.databases.localHosts,
      dumpCommand: config.databases.dumpCommand,
      clientCommand: config.databases.clientCommand,
    });
  }
  return new EmbeddedDatabasesDriver();
}
