import { mailAuthDataSchema, mailAuthParamsSchema, mailAuthPolicyParamsSchema } from '@panel247/contract/mail-auth';
import type { ApiRouter } from '../../http/api-route.ts';
import type { MailAuthService } from './mail-auth.service.ts';

export function registerMailAuthRoutes(api: ApiRouter, auth: MailAuthService) {
  api.session(
    { method: ['GET', 'POST'], url: 'service/:id/mail/auth/', params: mailAuthParamsSchema, data: mailAuthDataSchema },
    async ({ actor, params }) => ({ data: await auth.view(actor, params.id) }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/mail/auth/rotate/', params: mailAuthParamsSchema, data: mailAuthDataSchema },
    async ({ actor, params }) => ({ data: await auth.rotate(actor, params.id), info: ['mail.auth.rotation_started'] }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/mail/auth/policy/',
      params: mailAuthPolicyParamsSchema,
      data: mailAuthDataSchema,
    },
    async ({ actor, params }) => ({ data: await auth.savePolicy(actor, params), info: ['mail.auth.policy_saved'] }),
  );
}
