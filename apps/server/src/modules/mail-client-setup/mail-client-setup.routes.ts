import { mailboxParamsSchema } from '@panel247/contract/mail';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../../errors.ts';
import type { Authenticator } from '../../http/api-route.ts';
import { clientCallOf } from '../../http/client-call-of.ts';
import { contentDisposition } from '../../http/envelope.ts';
import { AUTODISCOVER_REQUEST_MAX_BYTES } from './autodiscover-document.ts';
import { BadSetupRequest, type MailClientSetupService } from './mail-client-setup.service.ts';

/** Where Thunderbird looks: on `autoconfig.<domain>` and under the domain's own `.well-known`. */
export const AUTOCONFIG_PATHS = ['/mail/config-v1.1.xml', '/.well-known/autoconfig/mail/config-v1.1.xml'];
/** Where Outlook posts (it has used both spellings). */
export const AUTODISCOVER_PATHS = ['/autodiscover/autodiscover.xml', '/Autodiscover/Autodiscover.xml'];

/** Mail clients read plain XML, not the panel's envelope: a refusal is a bare status. */
async function answerXml(reply: FastifyReply, work: () => Promise<string>) {
  let xml: string;
  try {
    xml = await work();
  } catch (error) {
    if (error instanceof NotFoundError) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    if (error instanceof BadSetupRequest)
      return reply.code(400).type('text/plain; charset=utf-8').send('Bad request\n');
    throw error;
  }
  return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-store').send(xml);
}

export async function registerMailClientSetupRoutes(
  app: FastifyInstance,
  options: { basePath: string; auth: Authenticator; setup: MailClientSetupService },
) {
  const { setup } = options;
  for (const url of AUTOCONFIG_PATHS) {
    app.get(url, (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const email = query.emailaddress;
      // One value, a string: a repeated parameter is not an address.
      if (email !== undefined && typeof email !== 'string') {
        return reply.code(400).type('text/plain; charset=utf-8').send('Bad request\n');
      }
      return answerXml(reply, () => setup.autoconfig(email, request.hostname));
    });
  }
  // The XML body parser only here: nowhere else does the panel take XML.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['text/xml', 'application/xml'],
      { parseAs: 'string', bodyLimit: AUTODISCOVER_REQUEST_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    for (const url of AUTODISCOVER_PATHS) {
      scope.post(url, { bodyLimit: AUTODISCOVER_REQUEST_MAX_BYTES }, (request, reply) =>
        answerXml(reply, () => {
          if (typeof request.body !== 'string') throw new BadSetupRequest();
          return setup.autodiscover(request.body);
        }),
      );
    }
  });

  app.get(`${options.basePath}service/:id/correo/:accountId/mobileconfig/`, async (request, reply) => {
    const actor = await options.auth.authenticate(clientCallOf(request, reply));
    const parsed = mailboxParamsSchema.safeParse(request.params);
    if (!parsed.success) throw new NotFoundError();
    const { fileName, body } = await setup.mobileconfig(actor, parsed.data.id, parsed.data.accountId);
    return reply
      .type('application/x-apple-aspen-config')
      .header('content-disposition', contentDisposition(fileName))
      .header('cache-control', 'no-store')
      .send(body);
  });
}
