import type { AppConfig } from '../../config.ts';
import { EmbeddedServiceUserDriver } from './embedded.driver.ts';
import { SystemServiceUserDriver } from './system.driver.ts';
import type { ServiceUserDriver } from './users.driver.ts';

export function createServiceUserDriver(config: AppConfig): ServiceUserDriver {
  return config.serviceUsers.driver === 'system' ? new SystemServiceUserDriver() : new EmbeddedServiceUserDriver();
}
