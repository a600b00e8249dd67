import type { AppConfig } from '../../config.ts';
import type { DdbbDriver } from './ddbb.driver.ts';
import { EmbeddedDdbbDriver } from './embedded.driver.ts';
import { MariaDbDriver } from './mariadb.driver.ts';

export function createDdbbDriver(config: AppConfig): DdbbDriver {
  if (config.databases.driver === 'mariadb') {
    return new MariaDbDriver({
      url: config.databases.url as string,
      localHosts: config.databases.localHosts,
      dumpCommand: config.databases.dumpCommand,
      clientCommand: config.databases.clientCommand,
    });
  }
  return new EmbeddedDdbbDriver();
}
