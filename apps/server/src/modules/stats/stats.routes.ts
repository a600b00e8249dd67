import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  statsParamsSchema,
  statsSiteDataSchema,
  statsSiteParamsSchema,
  statsSitesDataSchema,
} from '@panel247/contract/stats';
import type { ApiRouter } from '../../http/api-route.ts';
import type { StatsService } from './stats.service.ts';

/** The Statistics view (beyond the spec): reads answer GET and POST, the refresh POST. */
export function registerStatsRoutes(api: ApiRouter, stats: StatsService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  api.session(
    { method: both, url: 'service/:id/stats/', params: statsParamsSchema, data: statsSitesDataSchema },
    async ({ actor, params }) => ({ data: await stats.sites(actor, params.id) }),
  );
  api.session(
    { method: both, url: 'service/:id/stats/site/', params: statsSiteParamsSchema, data: statsSiteDataSchema },
    async ({ actor, params }) => ({ data: await stats.site(actor, params.id, params.host, params.month) }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/stats/refresh/', params: statsParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await stats.refresh(actor, params.id);
      return { data: {}, info: ['stats.refresh_started'] };
    },
  );
}
