import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  mailboxSpamDataSchema,
  mailboxSpamSaveParamsSchema,
  spamDataSchema,
  spamParamsSchema,
  spamSenderAddParamsSchema,
  spamSenderDataSchema,
  spamSenderParamsSchema,
} from '@panel247/contract/mail-spam';
import type { ApiRouter } from '../../http/api-route.ts';
import type { MailSpamService } from './mail-spam.service.ts';

export function registerMailSpamRoutes(api: ApiRouter, spam: MailSpamService) {
  api.session(
    { method: ['GET', 'POST'], url: 'service/:id/mail/spam/', params: spamParamsSchema, data: spamDataSchema },
    async ({ actor, params }) => ({ data: await spam.overview(actor, params.id) }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/correo/:accountId/spam/save/',
      params: mailboxSpamSaveParamsSchema,
      data: mailboxSpamDataSchema,
    },
    async ({ actor, params }) => ({
      data: { mailbox: await spam.saveMailbox(actor, params.id, params.accountId, params) },
      info: ['mail.spam_saved'],
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/mail/spam/senders/add/',
      params: spamSenderAddParamsSchema,
      data: spamSenderDataSchema,
    },
    async ({ actor, params }) => ({
      data: { sender: await spam.addSender(actor, params.id, params) },
      info: ['mail.spam_sender_added'],
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/mail/spam/senders/:senderId/delete/',
      params: spamSenderParamsSchema,
      data: emptyDataSchema,
    },
    async ({ actor, params }) => {
      await spam.removeSender(actor, params.id, params.senderId);
      return { data: {}, info: ['mail.spam_sender_removed'] };
    },
  );
}
