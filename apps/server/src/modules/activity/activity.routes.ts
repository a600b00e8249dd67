import {
  activityExportParamsSchema,
  activityListDataSchema,
  activityListParamsSchema,
} from '@panel247/contract/activity';
import type { Language } from '@panel247/contract/constants';
import type { FastifyInstance } from 'fastify';
import type { ApiRouter, Authenticator } from '../../http/api-route.ts';
import { clientCallOf } from '../../http/client-call-of.ts';
import { contentDisposition } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/request-context.ts';
import { toFieldErrors } from '../../http/zod-field-errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActivityService } from './activity.service.ts';

export function registerActivityRoutes(
  api: ApiRouter,
  activity: ActivityService,
  options: { app: FastifyInstance; basePath: string; auth: Authenticator; defaultLanguage: Language },
) {
  api.session(
    { method: ['GET', 'POST'], url: 'activity/list/', params: activityListParamsSchema, data: activityListDataSchema },
    async ({ actor, params }) => ({ data: await activity.list(actor, params) }),
  );
  // A file, not an envelope: the web app fetches it with the page's filters and saves it.
  options.app.get(`${options.basePath}activity/export/`, async (request, reply) => {
    const actor = await options.auth.authenticate(clientCallOf(request, reply));
    const parsed = activityExportParamsSchema.safeParse(request.query);
    if (!parsed.success) throw toFieldErrors(parsed.error, request.query as Record<string, unknown>);
    const language = requestLanguage(request, options.defaultLanguage);
    const csv = await activity.exportCsv(actor, parsed.data, (area) => translate(language, `activity.area.${area}`));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', contentDisposition('activity.csv'))
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
