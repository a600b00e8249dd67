import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  loginPasskeyOptionsParamsSchema,
  loginPasskeyParamsSchema,
  passkeyListDataSchema,
  passkeyLoginStartDataSchema,
  passkeyLoginStartParamsSchema,
  passkeyOptionsDataSchema,
  passkeyRegisterOptionsParamsSchema,
  passkeyRegisterParamsSchema,
  passkeyRemoveParamsSchema,
  passkeyRenameParamsSchema,
  passkeySchema,
} from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import { loginDataSchema } from '@panel247/contract/user';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { PasskeyService } from './passkey.service.ts';

const noParams = z.object({});

export function registerPasskeyRoutes(api: ApiRouter, passkeys: PasskeyService) {
  api.public(
    {
      method: 'POST',
      url: API.userLoginPasskeyOptions,
      params: loginPasskeyOptionsParamsSchema,
      data: passkeyOptionsDataSchema,
    },
    async ({ call, params }) => ({ data: await passkeys.loginOptions(call, params.loginToken) }),
  );

  api.public(
    {
      method: 'POST',
      url: API.userLoginPasskeyStart,
      params: passkeyLoginStartParamsSchema,
      data: passkeyLoginStartDataSchema,
    },
    async ({ call, params }) => ({ data: await passkeys.loginStart(call, params) }),
  );

  api.public(
    { method: 'POST', url: API.userLoginPasskey, params: loginPasskeyParamsSchema, data: loginDataSchema },
    async ({ call, params }) => ({ data: await passkeys.login(call, params) }),
  );

  // Listing and adding are open to a user whose brand requires a second factor not set up yet:
  // a passkey is one.
  api.session(
    {
      method: ['GET', 'POST'],
      url: API.passkeyList,
      params: noParams,
      data: passkeyListDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor }) => ({ data: await passkeys.list(actor) }),
  );

  api.session(
    {
      method: 'POST',
      url: API.passkeyRegisterOptions,
      params: passkeyRegisterOptionsParamsSchema,
      data: passkeyOptionsDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor, call, params }) => ({ data: await passkeys.registerOptions(actor, call, params) }),
  );

  api.session(
    {
      method: 'POST',
      url: API.passkeyRegister,
      params: passkeyRegisterParamsSchema,
      data: passkeySchema,
      beforeSecondFactor: true,
    },
    async ({ actor, call, params, language }) => ({
      data: await passkeys.register(actor, call, params, language),
      info: ['passkey.added'],
    }),
  );

  api.session(
    { method: 'POST', url: API.passkeyReauthOptions, params: noParams, data: passkeyOptionsDataSchema },
    async ({ actor, call }) => ({ data: await passkeys.reauthOptions(actor, call) }),
  );

  api.session(
    { method: 'POST', url: API.passkeyRename(':id'), params: passkeyRenameParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await passkeys.rename(actor, params);
      return { data: {}, info: ['passkey.renamed'] };
    },
  );

  api.session(
    { method: 'POST', url: API.passkeyRemove(':id'), params: passkeyRemoveParamsSchema, data: emptyDataSchema },
    async ({ actor, call, params, language }) => {
      await passkeys.remove(actor, call, params, language);
      return { data: {}, info: ['passkey.removed'] };
    },
  );
}
