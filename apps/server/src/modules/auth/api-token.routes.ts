import {
  apiTokenCreatedDataSchema,
  apiTokenCreateParamsSchema,
  apiTokenListDataSchema,
  apiTokenResourcesDataSchema,
  apiTokensRevokeAllParamsSchema,
  apiTokensRevokedDataSchema,
} from '@panel247/contract/api-tokens';
import { emptyDataSchema } from '@panel247/contract/envelope';
import { idParam } from '@panel247/contract/fields';
import { API } from '@panel247/contract/routes';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { ApiTokenService } from './api-token.service.ts';

export function registerApiTokenRoutes(api: ApiRouter, tokens: ApiTokenService) {
  api.session(
    { method: ['GET', 'POST'], url: API.apiTokens, params: z.object({}), data: apiTokenListDataSchema },
    async ({ actor }) => ({ data: await tokens.list(actor) }),
  );

  api.session(
    { method: 'GET', url: API.apiTokenResources, params: z.object({}), data: apiTokenResourcesDataSchema },
    async ({ actor }) => ({ data: await tokens.resources(actor) }),
  );

  api.session(
    { method: 'POST', url: API.apiTokenCreate, params: apiTokenCreateParamsSchema, data: apiTokenCreatedDataSchema },
    async ({ actor, call, params, language }) => ({
      data: await tokens.create(actor, call, params, language),
      info: ['apitokens.created'],
    }),
  );

  api.session(
    { method: 'POST', url: API.apiTokenRevoke(':id'), params: z.object({ id: idParam }), data: emptyDataSchema },
    async ({ actor, call, params, language }) => {
      await tokens.revoke(actor, call, params.id, language);
      return { data: {}, info: ['apitokens.revoked'] };
    },
  );

  // Under user/: a token cannot call it (RequestAuthenticator), the person must.
  api.session(
    {
      method: 'POST',
      url: API.apiTokensRevokeAll,
      params: apiTokensRevokeAllParamsSchema,
      data: apiTokensRevokedDataSchema,
    },
    async ({ actor, call, params, language }) => {
      const data = await tokens.revokeAll(actor, call, params, language);
      return { data, info: ['apitokens.all_revoked'] };
    },
  );
}
