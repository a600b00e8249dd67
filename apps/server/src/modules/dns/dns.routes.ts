import {
  dnsCreateParamsSchema,
  dnsListDataSchema,
  dnsListParamsSchema,
  dnsOneDataSchema,
  dnsRecordParamsSchema,
  dnsSaveParamsSchema,
  dnsServiceParamsSchema,
} from '@panel247/contract/dns';
import {
  dnsChangeActionParamsSchema,
  dnsChangeDataSchema,
  dnsChangeMadeDataSchema,
  dnsChangeParamsSchema,
  dnsHistoryDataSchema,
  dnsHistoryParamsSchema,
} from '@panel247/contract/dns-history';
import {
  dnsImportAxfrDataSchema,
  dnsImportAxfrParamsSchema,
  dnsImportDataSchema,
  dnsImportOptionsDataSchema,
  dnsImportParamsSchema,
} from '@panel247/contract/dns-import';
import { emptyDataSchema } from '@panel247/contract/envelope';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../../errors.ts';
import type { ApiRouter, Authenticator } from '../../http/api-route.ts';
import { clientCallOf } from '../../http/client-call-of.ts';
import { contentDisposition } from '../../http/envelope.ts';
import { translate } from '../../i18n/messages.ts';
import type { DnsService, RecordChange } from './dns.service.ts';
import { importAnswer } from './zone-import.ts';

/**
 * Reads answer GET and POST; changes are POST (GET stays accepted for the spec's action calls).
 * A change the DNS server has not confirmed is saved all the same, and its message says so.
 */
export function registerDnsRoutes(api: ApiRouter, dns: DnsService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];

  api.session(
    { method: both, url: 'service/:id/dns/list/', params: dnsListParamsSchema, data: dnsListDataSchema },
    async ({ actor, params }) => ({ data: await dns.list(actor, params) }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/dns/create/', params: dnsCreateParamsSchema, data: dnsOneDataSchema },
    async ({ actor, params }) => {
      const { value, published } = await dns.create(actor, params);
      return recordAnswer(value, published ? 'dns.created' : 'dns.unconfirmed');
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/dns/publish/', params: dnsServiceParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => ({
      data: {},
      info: [(await dns.publishNow(actor, params.id)) ? 'dns.published' : 'dns.unconfirmed'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/dns/restore/', params: dnsServiceParamsSchema, data: dnsListDataSchema },
    async ({ actor, params }) => {
      const { value, published } = await dns.restore(actor, params.id);
      return { data: value, info: [published ? 'dns.restored' : 'dns.unconfirmed'] };
    },
  );
  api.session(
    {
      method: both,
      url: 'service/:id/dns/delete/',
      params: dnsServiceParamsSchema,
      data: dnsListDataSchema,
      activityAction: 'dns/delete_all',
    },
    async ({ actor, params }) => {
      const { value, published } = await dns.removeAll(actor, params.id);
      return { data: value, info: [published ? 'dns.deleted_all' : 'dns.unconfirmed'] };
    },
  );
  // A form-encoded 2 MB zone file can take three times its size on the wire.
  const importRoute = { params: dnsImportParamsSchema, data: dnsImportDataSchema, bodyLimit: 8 * 1024 * 1024 };
  api.session(
    { method: 'POST', url: 'service/:id/dns/import/preview/', ...importRoute },
    async ({ actor, params, language }) => {
      const plan = await dns.importPreview(actor, params);
      return { data: importAnswer(plan, params.text, params.mode, false, (key, p) => translate(language, key, p)) };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/dns/import/', ...importRoute },
    async ({ actor, params, language }) => {
      const { value, published } = await dns.importApply(actor, params);
      const data = importAnswer(value.plan, params.text, params.mode, value.applied, (key, p) =>
        translate(language, key, p),
      );
      const info = !value.applied ? 'dns.import.nothing' : published ? 'dns.import.applied' : 'dns.unconfirmed';
      return { data, info: [info] };
    },
  );
  api.session(
    {
      method: both,
      url: 'service/:id/dns/import/options/',
      params: dnsServiceParamsSchema,
      data: dnsImportOptionsDataSchema,
    },
    async ({ actor, params }) => ({ data: await dns.importOptions(actor, params.id) }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/dns/import/axfr/',
      params: dnsImportAxfrParamsSchema,
      data: dnsImportAxfrDataSchema,
    },
    async ({ actor, params }) => ({ data: { text: await dns.importAxfr(actor, params) } }),
  );
  api.session(
    { method: both, url: 'service/:id/dns/history/', params: dnsHistoryParamsSchema, data: dnsHistoryDataSchema },
    async ({ actor, params }) => ({ data: await dns.changeSets(actor, params) }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/dns/history/:changeId/',
      params: dnsChangeParamsSchema,
      data: dnsChangeDataSchema,
    },
    async ({ actor, params }) => ({ data: await dns.changeSet(actor, params) }),
  );
  const historyAction = { method: 'POST', params: dnsChangeActionParamsSchema, data: dnsChangeMadeDataSchema } as const;
  api.session({ ...historyAction, url: 'service/:id/dns/history/:changeId/revert/' }, async ({ actor, params }) => {
    const { value, published } = await dns.revert(actor, params);
    return { data: { change: value }, info: [historyInfo(value, published, 'dns.history.reverted')] };
  });
  api.session({ ...historyAction, url: 'service/:id/dns/history/:changeId/restore/' }, async ({ actor, params }) => {
    const { value, published } = await dns.restoreAt(actor, params);
    return { data: { change: value }, info: [historyInfo(value, published, 'dns.history.restored')] };
  });
  api.session(
    { method: both, url: 'service/:id/dns/:dnsZoneId/', params: dnsRecordParamsSchema, data: dnsOneDataSchema },
    async ({ actor, params }) => ({ data: { dns: await dns.get(actor, params.id, params.dnsZoneId) } }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/dns/:dnsZoneId/save/', params: dnsSaveParamsSchema, data: dnsOneDataSchema },
    async ({ actor, params }) => {
      const { value, published } = await dns.save(actor, params);
      return recordAnswer(value, published ? 'dns.saved' : 'dns.unconfirmed');
    },
  );
  api.session(
    { method: both, url: 'service/:id/dns/:dnsZoneId/delete/', params: dnsRecordParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      const { published } = await dns.remove(actor, params.id, params.dnsZoneId);
      return { data: {}, info: [published ? 'dns.deleted' : 'dns.unconfirmed'] };
    },
  );
}

/** A record created or edited; when others of its RRset took its TTL, the answer says so. */
function recordAnswer(change: RecordChange, info: string) {
  const retimed = change.rrsetRetimed > 0;
  return {
    data: { dns: change.record, ...(retimed ? { rrsetRetimed: change.rrsetRetimed } : {}) },
    info: retimed ? [info, 'dns.rrset_ttl_changed'] : [info],
  };
}

/** A revert or restore that found nothing to change says so. */
function historyInfo(change: unknown, published: boolean, done: string): string {
  if (!change) return 'dns.history.nothing';
  return published ? done : 'dns.unconfirmed';
}

/** The zone as a BIND master file, now or as it was after a change set: a download, so not an envelope. */
export function registerDnsExportRoute(
  app: FastifyInstance,
  options: { basePath: string; auth: Authenticator; dns: DnsService },
) {
  const send = (reply: FastifyReply, { fileName, text }: { fileName: string; text: string }) =>
    reply
      .type('text/dns; charset=utf-8')
      .header('content-disposition', contentDisposition(fileName))
      .header('cache-control', 'no-store')
      .send(text);
  app.get(`${options.basePath}service/:id/dns/export/`, async (request, reply) => {
    const actor = await options.auth.authenticate(clientCallOf(request, reply));
    const parsed = dnsServiceParamsSchema.safeParse(request.params);
    if (!parsed.success) throw new NotFoundError();
    return send(reply, await options.dns.exportZone(actor, parsed.data.id));
  });
  app.get(`${options.basePath}service/:id/dns/history/:changeId/export/`, async (request, reply) => {
    const actor = await options.auth.authenticate(clientCallOf(request, reply));
    const parsed = dnsChangeActionParamsSchema.safeParse(request.params);
    if (!parsed.success) throw new NotFoundError();
    return send(reply, await options.dns.exportAt(actor, parsed.data));
  });
}
