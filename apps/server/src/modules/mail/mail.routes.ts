import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  aliasCreateParamsSchema,
  aliasDataSchema,
  aliasListDataSchema,
  aliasParamsSchema,
  aliasSaveParamsSchema,
  connectionDataSchema,
  mailApplyDataSchema,
  mailboxCreateParamsSchema,
  mailboxDataSchema,
  mailboxListDataSchema,
  mailboxParamsSchema,
  mailboxPasswordParamsSchema,
  mailboxQuotaParamsSchema,
  mailboxRulesDataSchema,
  mailboxRulesSaveParamsSchema,
  mailListDataSchema,
  mailListParamsSchema,
  mailServiceParamsSchema,
  webmailLoginDataSchema,
} from '@panel247/contract/mail';
import { signonRedeemParamsSchema } from '@panel247/contract/signon';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import { applyNowInfo } from '../../jobs/service-changes.ts';
import type { MailService } from './mail.service.ts';

export function registerMailRoutes(api: ApiRouter, mail: MailService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];

  api.session(
    { method: both, url: 'service/:id/correo/list/', params: mailServiceParamsSchema, data: mailboxListDataSchema },
    async ({ actor, params }) => ({
      data: { correo: await mail.mailboxes(actor, params.id) },
    }),
  );
  api.session(
    { method: both, url: 'service/:id/alias/list/', params: mailServiceParamsSchema, data: aliasListDataSchema },
    async ({ actor, params }) => ({
      data: { alias: await mail.aliases(actor, params.id) },
    }),
  );
  api.session(
    { method: both, url: 'service/:id/mail/list/', params: mailListParamsSchema, data: mailListDataSchema },
    async ({ actor, params }) => ({ data: await mail.list(actor, params) }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/mail/apply/', params: mailServiceParamsSchema, data: mailApplyDataSchema },
    async ({ actor, params }) => {
      const { applying, applied } = await mail.applyNow(actor, params.id);
      return { data: { applying }, info: [applyNowInfo(applied, applying, 'mail.applied')] };
    },
  );
  api.session(
    {
      method: both,
      url: 'service/:id/correo/connection/',
      params: mailServiceParamsSchema,
      data: connectionDataSchema,
    },
    async ({ actor, params }) => ({
      data: await mail.connection(actor, params.id),
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/correo/create/', params: mailboxCreateParamsSchema, data: mailboxDataSchema },
    async ({ actor, params }) => ({
      data: { correo: await mail.createMailbox(actor, params.id, params) },
      info: ['mail.account_created'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/correo/:accountId/', params: mailboxParamsSchema, data: mailboxDataSchema },
    async ({ actor, params }) => ({
      data: { correo: await mail.mailbox(actor, params.id, params.accountId) },
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/correo/:accountId/changepassword/',
      params: mailboxPasswordParamsSchema,
      data: mailboxDataSchema,
    },
    async ({ actor, params }) => ({
      data: { correo: await mail.changePassword(actor, params.id, params.accountId, params.password) },
      info: ['mail.password_changed'],
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/correo/:accountId/quota/',
      params: mailboxQuotaParamsSchema,
      data: mailboxDataSchema,
    },
    async ({ actor, params }) => ({
      data: { correo: await mail.setQuota(actor, params.id, params.accountId, params.quota) },
      info: ['mail.quota_changed'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/correo/:accountId/rules/',
      params: mailboxParamsSchema,
      data: mailboxRulesDataSchema,
    },
    async ({ actor, params }) => ({
      data: { rules: await mail.rules(actor, params.id, params.accountId) },
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/correo/:accountId/rules/save/',
      params: mailboxRulesSaveParamsSchema,
      data: mailboxRulesDataSchema,
    },
    async ({ actor, params }) => ({
      data: { rules: await mail.saveRules(actor, params.id, params.accountId, params) },
      info: ['mail.rules_saved'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/correo/:accountId/delete/', params: mailboxParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await mail.deleteMailbox(actor, params.id, params.accountId);
      return { data: {}, info: ['mail.account_deleted'] };
    },
  );
  api.session(
    {
      method: both,
      url: 'service/:id/correo/:accountId/login/',
      params: mailboxParamsSchema,
      data: webmailLoginDataSchema,
    },
    async ({ actor, params }) => ({
      data: await mail.webmailLogin(actor, params.id, params.accountId),
    }),
  );

  api.session(
    { method: 'POST', url: 'service/:id/alias/create/', params: aliasCreateParamsSchema, data: aliasDataSchema },
    async ({ actor, params }) => ({
      data: { alias: await mail.createAlias(actor, params.id, params) },
      info: ['mail.alias_created'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/alias/:aliasId/', params: aliasParamsSchema, data: aliasDataSchema },
    async ({ actor, params }) => ({
      data: { alias: await mail.alias(actor, params.id, params.aliasId) },
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/alias/:aliasId/save/', params: aliasSaveParamsSchema, data: aliasDataSchema },
    async ({ actor, params }) => ({
      data: { alias: await mail.saveAlias(actor, params.id, params.aliasId, params.target) },
      info: ['mail.alias_saved'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/alias/:aliasId/delete/', params: aliasParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await mail.deleteAlias(actor, params.id, params.aliasId);
      return { data: {}, info: ['mail.alias_deleted'] };
    },
  );

  // Server to server: the WebMail trades a sign-on token for the mailbox it opens (once).
  api.public(
    {
      method: 'POST',
      url: 'webmail/redeem/',
      params: signonRedeemParamsSchema,
      data: z.object({ user: z.string() }),
    },
    async ({ params }) => ({ data: { user: await mail.redeemToken(params.key, params.token) } }),
  );
}
