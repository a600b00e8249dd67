import { emptyDataSchema } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import { sessionEndParamsSchema, sessionListDataSchema, sessionsEndedDataSchema } from '@panel247/contract/sessions';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { UserSessionsService } from './user-sessions.service.ts';

const noParams = z.object({});

export function registerUserSessionsRoutes(api: ApiRouter, sessions: UserSessionsService) {
  api.session(
    { method: ['GET', 'POST'], url: API.userSessions, params: noParams, data: sessionListDataSchema },
    async ({ actor }) => ({ data: await sessions.list(actor) }),
  );

  api.session(
    { method: 'POST', url: API.userSessionEnd(':id'), params: sessionEndParamsSchema, data: emptyDataSchema },
    async ({ actor, call, params }) => {
      await sessions.end(actor, call, params.id);
      return { data: {}, info: ['sessions.ended'] };
    },
  );

  api.session(
    { method: 'POST', url: API.userSessionsEndOthers, params: noParams, data: sessionsEndedDataSchema },
    async ({ actor, call }) => {
      const data = await sessions.endOthers(actor, call);
      return { data, info: ['sessions.others_ended'] };
    },
  );
}
