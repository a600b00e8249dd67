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
    async ({ call, params }) => ({ data: await auth.loginCode(call, params) }),
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
    async ({ actor, call, params, language }) => ({
      data: await twoFactor.enable(actor, call, params.code, language),
      info: ['twofactor.enabled'],
    }),
  );

  api.session(
    { method: 'POST', url: API.twoFactorDisable, params: twoFactorReauthParamsSchema, data: emptyDataSchema },
    async ({ actor, call, params, language }) => {
      await twoFactor.disable(actor, call, params, language);
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
    async ({ actor, call, params, language }) => ({
      data: await twoFactor.regenerateRecoveryCodes(actor, call, params, language),
      info: ['twofactor.recovery_codes_new'],
    }),
  );
}
