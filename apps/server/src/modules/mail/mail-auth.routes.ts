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
    async ({ actor, params }) => {
      const { data, saved } = await auth.savePolicy(actor, params);
      // The message names what changed: a DMARC-only change does not claim SPF was rewritten.
      const info =
        saved.spf && saved.dmarc
          ? 'mail.auth.policy_saved'
          : saved.spf
            ? 'mail.auth.spf_saved'
            : saved.dmarc
              ? 'mail.auth.dmarc_saved'
              : 'mail.auth.policy_unchanged';
      return { data, info: [info] };
    },
  );
}
