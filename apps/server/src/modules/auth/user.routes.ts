import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  changePasswordParamsSchema,
  loginDataSchema,
  loginParamsSchema,
  userInfoDataSchema,
} from '@panel247/contract/user';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { AuthService } from './auth.service.ts';

const noParams = z.object({});

export function registerUserRoutes(api: ApiRouter, auth: AuthService) {
  api.public(
    { method: 'POST', url: 'user/login/', params: loginParamsSchema, data: loginDataSchema },
    async ({ call, params }) => ({ data: await auth.login(call, params) }),
  );

  api.session(
    {
      method: ['GET', 'POST'],
      url: 'user/info/',
      params: noParams,
      data: userInfoDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor, call, language }) => ({ data: auth.info(actor, call, language) }),
  );

  api.session(
    {
      method: ['GET', 'POST'],
      url: 'user/logout/',
      params: noParams,
      data: emptyDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor, call, reply }) => {
      await auth.logout(actor, call);
      // The permission list is kept in the browser's cache for revalidation (ETag): on a shared
      // computer it must not outlive the session that fetched it.
      reply.header('clear-site-data', '"cache"');
      return { data: {}, info: ['auth.logged_out'] };
    },
  );

  api.session(
    { method: 'POST', url: 'user/changepass/', params: changePasswordParamsSchema, data: emptyDataSchema },
    async ({ actor, call, params }) => {
      await auth.changePassword(actor, call, params);
      return { data: {}, info: ['auth.password_changed'] };
    },
  );
}
