import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { HostingServices } from '../hosting/create-hosting-service.ts';
import { PlansService } from './plans.service.ts';

/**
 * The plans with what they need of hosting: a service's sizes for a downgrade's check, and its web
 * configuration rendered again when its plan's PHP workers or versions change (the pool's
 * `pm.max_children`), as one change of the service in the work log.
 */
export function createPlansService(
  db: Db,
  config: AppConfig,
  now: () => number,
  hosting: Pick<HostingServices, 'overview' | 'changes'>,
): PlansService {
  return new PlansService(db, now, {
    phpVersions: Object.keys(config.web.phpSockets),
    measure: (service) => hosting.overview.sizes(service),
    applied: async (services) => {
      for (const service of services) await hosting.changes.change(service, async () => undefined, { prepare: [] });
    },
  });
}
