import type { AppConfig } from '../../config.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { EmbeddedRegistryDriver } from './embedded-registry.driver.ts';
import type { RegistryDriver } from './registry.driver.ts';

/**
 * The registry driver `registry.driver` names (validated by the config). An EPP driver is one more
 * case here and one more value in the config's list; services and routes stay as they are.
 */
export function createRegistryDriver(config: AppConfig, deps: { db: Db; authSecrets: SecretBox }): RegistryDriver {
  switch (config.registry.driver) {
    case 'embedded':
      return new EmbeddedRegistryDriver(deps.db, deps.authSecrets);
  }
}
