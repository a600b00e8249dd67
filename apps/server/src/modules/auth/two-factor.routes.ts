import { emptyDataSchema } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import {
  loginCodeParamsSchema,
  recoveryCodesDataSchema,
  twoFactorEnableParamsSchema,
  twoFactorReauthParamsSchema,
  twoFactorSetupDataSchema,
  twoFactorStatusDataSchema,
} from '@panel247/contract/two-factor';
import { loginDataSchema } from '@panel247/contract/user';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { AuthService } from './auth.service.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const noParams = z.object({});

export function registerTwoFactorRoutes(api: ApiRouter, auth: AuthService, twoFactor: TwoFactorService) {
  api.public(
    { method: 'POST', url: API.userLoginCode, params: loginCodeParamsSchema, data: loginDataSchema },
    async ({ request, reply, params }) => ({ data: await auth.loginCode(request, reply, params) }),
  );

  api.session(
    {
      method: ['GET', 'POST'],
      url: API.twoFactorStatus,
      params: noParams,
      data: twoFactorStatusDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor }) => ({ data: await twoFactor.status(actor) }),
  );

  api.session(
    {
      method: 'POST',
      url: API.twoFactorSetup,
      params: noParams,
      data: twoFactorSetupDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor }) => ({ data: await twoFactor.setup(actor) }),
  );

  api.session(
    {
      method: 'POST',
      url: API.twoFactorEnable,
      params: twoFactorEnableParamsSchema,
      data: recoveryCodesDataSchema,
      beforeSecondFactor: true,
    },
    async ({ actor, request, params, language }) => ({
      data: await twoFactor.enable(actor, request, params.code, language),
      info: ['twofactor.enabled'],
    }),
  );

  api.session(
    { method: 'POST', url: API.twoFactorDisable, params: twoFactorReauthParamsSchema, data: emptyDataSchema },
    async ({ actor, request, params, language }) => {
      await twoFactor.disable(actor, request, params, language);
      return { data: {}, info: ['twofactor.disabled'] };
    },
  );

  api.session(
    {
      method: 'POST',
      url: API.twoFactorRecoveryCodes,
      params: twoFactorReauthParamsSchema,
      data: recoveryCodesDataSchema,
    },
    async ({ actor, request, params, language }) => ({
      data: await twoFactor.regenerateRecoveryCodes(actor, request, params, language),
      info: ['twofactor.recovery_codes_new'],
    }),
  );
}
