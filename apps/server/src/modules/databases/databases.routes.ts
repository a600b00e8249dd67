import {
  databasesApplyDataSchema,
  databasesCreateParamsSchema,
  databasesListDataSchema,
  databasesOneDataSchema,
  databasesParamsSchema,
  databasesPasswordParamsSchema,
  databasesRedeemDataSchema,
  databasesServiceParamsSchema,
} from '@panel247/contract/databases';
import { emptyDataSchema } from '@panel247/contract/envelope';
import { signonFormSchema, signonRedeemParamsSchema } from '@panel247/contract/signon';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors.ts';
import type { ApiRouter, Authenticator } from '../../http/api-route.ts';
import { clientCallOf } from '../../http/client-call-of.ts';
import { contentDisposition } from '../../http/envelope.ts';
import { applyNowInfo } from '../../jobs/service-changes.ts';
import type { DatabasesService } from './databases.service.ts';

/** Reads answer GET and POST; changes are POST (GET stays accepted for the spec's action calls). */
export function registerDatabasesRoutes(
  api: ApiRouter,
  databases: DatabasesService,
  options: { app: FastifyInstance; basePath: string; auth: Authenticator },
) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  options.app.addHook('onClose', () => databases.close());

  api.session(
    {
      method: both,
      url: 'service/:id/ddbb/list/',
      params: databasesServiceParamsSchema,
      data: databasesListDataSchema,
    },
    async ({ actor, params }) => ({ data: await databases.list(actor, params.id) }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/ddbb/apply/',
      params: databasesServiceParamsSchema,
      data: databasesApplyDataSchema,
    },
    async ({ actor, params }) => {
      const { applying, applied } = await databases.applyNow(actor, params.id);
      return { data: { applying }, info: [applyNowInfo(applied, applying, 'ddbb.applied')] };
    },
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/ddbb/create/',
      params: databasesCreateParamsSchema,
      data: databasesOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { ddbb: await databases.create(actor, params.id, params.password) },
      info: ['ddbb.created'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/ddbb/:did/', params: databasesParamsSchema, data: databasesOneDataSchema },
    async ({ actor, params }) => ({ data: { ddbb: await databases.get(actor, params.id, params.did) } }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/ddbb/:did/changepassword/',
      params: databasesPasswordParamsSchema,
      data: databasesOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { ddbb: await databases.changePassword(actor, params.id, params.did, params.password) },
      info: ['ddbb.password_changed'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/ddbb/:did/delete/', params: databasesParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await databases.remove(actor, params.id, params.did);
      return { data: {}, info: ['ddbb.deleted'] };
    },
  );
  api.session(
    {
      method: both,
      url: 'service/:id/ddbb/:did/toggle/externalaccess/',
      params: databasesParamsSchema,
      data: databasesOneDataSchema,
    },
    async ({ actor, params }) => {
      const database = await databases.toggleExternalAccess(actor, params.id, params.did);
      return { data: { ddbb: database }, info: [database.externalAccess ? 'ddbb.external_on' : 'ddbb.external_off'] };
    },
  );
  api.session(
    { method: both, url: 'service/:id/ddbb/:did/login/', params: databasesParamsSchema, data: signonFormSchema },
    async ({ actor, params }) => ({ data: await databases.phpmyadminLogin(actor, params.id, params.did) }),
  );

  // Server to server: phpMyAdmin's hand-off script trades a sign-on token for the login (once).
  api.public(
    { method: 'POST', url: 'phpmyadmin/redeem/', params: signonRedeemParamsSchema, data: databasesRedeemDataSchema },
    async ({ params }) => ({ data: await databases.redeemToken(params.key, params.token) }),
  );

  // The dump is a download, not an envelope: streamed from the dump tool as it is produced.
  options.app.get(`${options.basePath}service/:id/ddbb/:did/dump/`, async (request, reply) => {
    const actor = await options.auth.authenticate(clientCallOf(request, reply));
    const parsed = databasesParamsSchema.safeParse(request.params);
    if (!parsed.success) throw new NotFoundError();
    const { fileName, stream } = await databases.dump(actor, parsed.data.id, parsed.data.did);
    return reply
      .type('application/sql; charset=utf-8')
      .header('content-disposition', contentDisposition(fileName))
      .header('cache-control', 'no-store')
      .send(stream);
  });
}
