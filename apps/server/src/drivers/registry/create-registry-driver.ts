import type { AppConfig } from '../../config.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { EmbeddedRegistryDriver } from './embedded-registry.driver.ts';
import type { EppTransaction } from './epp/epp-pool.ts';
import { type EppRegistrySettings, eppRegistryHandles } from './epp/epp-registries.ts';
import { EppRegistryDriver } from './epp/epp-registry.driver.ts';
import type { RegistryDriver } from './registry.driver.ts';

export interface RegistryDriverDeps {
  db: Db;
  authSecrets: SecretBox;
  /** The registries of `panel registry add` (EPP). */
  registries: () => Promise<EppRegistrySettings[]>;
  /** Each command a registry answered (its transaction ids go to the activity log). */
  onTransaction?: (transaction: EppTransaction) => void;
  now: () => number;
}

/**
 * The registry driver `registry.driver` names (validated by the config). An EPP driver is one more
 * case here and one more value in the config's list; services and routes stay as they are.
 */
export function createRegistryDriver(config: AppConfig, deps: RegistryDriverDeps): RegistryDriver {
  switch (config.registry.driver) {
    case 'embedded':
      return new EmbeddedRegistryDriver(deps.db, deps.authSecrets);
    case 'epp':
      return new EppRegistryDriver({
        settings: deps.registries,
        handles: (settings) =>
          eppRegistryHandles(settings as EppRegistrySettings[], {
            keepAliveMs: config.registry.keepAliveSeconds * 1000,
            ...(deps.onTransaction ? { onTransaction: deps.onTransaction } : {}),
          }),
        // a registry added or changed with the CLI (another process) is taken up within a minute
        refreshMs: 60_000,
        cacheSeconds: config.registry.cacheSeconds,
        now: deps.now,
      });
  }
}
