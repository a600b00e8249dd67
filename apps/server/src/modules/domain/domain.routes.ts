import {
  authCodeDataSchema,
  contactSaveParamsSchema,
  countryDataSchema,
  countryParamsSchema,
  dnsEditParamsSchema,
  dnsInitDataSchema,
  dnssecCreateDataSchema,
  dnssecCreateInitDataSchema,
  dnssecCreateParamsSchema,
  dnssecListDataSchema,
  dnssecParamsSchema,
  domainDataSchema,
  domainOnlyDataSchema,
  domainParamsSchema,
  glueCreateParamsSchema,
  glueListDataSchema,
  glueParamsSchema,
  glueSaveParamsSchema,
  transferKeyDataSchema,
} from '@panel247/contract/domain';
import { FieldErrors } from '../../errors.ts';
import type { ApiRouter } from '../../http/api-route.ts';
import { lookupAddress } from '../address/address.service.ts';
import type { DomainServices } from './create-domain-services.ts';
import type { DomainContactService } from './domain-contact.service.ts';

/** Reads answer GET (and POST); changes are POST, GET stays accepted for the spec's action calls. */
export function registerDomainRoutes(api: ApiRouter, domains: DomainServices, contacts: DomainContactService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];

  api.session(
    { method: both, url: 'domain/:id/', params: domainParamsSchema, data: domainDataSchema },
    async ({ actor, params, language }) => ({
      data: await domains.domain.get(actor, params.id, language),
    }),
  );

  api.session(
    { method: both, url: 'domains/:id/dnsinit/', params: domainParamsSchema, data: dnsInitDataSchema },
    async ({ actor, params }) => {
      const init = await domains.nameServers.init(actor, params.id);
      const { domainDNSs, hasService, defaultDNSs, dsRecords, canRemoveDs, zoneDsRecords } = init;
      return { data: { domainDNSs, hasService, defaultDNSs, dsRecords, canRemoveDs, zoneDsRecords } };
    },
  );
  api.session(
    { method: 'POST', url: 'domain/:id/dnsedit/', params: dnsEditParamsSchema, data: domainOnlyDataSchema },
    async ({ actor, params }) => {
      const { domain, dsRemoved, dsPublished } = await domains.nameServers.edit(
        actor,
        params.id,
        params['default-ns'] === '1',
        params.dns,
        params.ds,
        params.publishDs === '1',
      );
      const info = ['domain.dns_saved'];
      if (dsRemoved > 0) info.push('domain.ds_removed');
      if (dsPublished > 0) info.push('domain.ds_published');
      return { data: { domain }, info };
    },
  );

  api.session(
    { method: both, url: 'domain/:id/gluerecord/list/', params: domainParamsSchema, data: glueListDataSchema },
    async ({ actor, params }) => ({
      data: { gluerecords: await domains.glue.list(actor, params.id) },
    }),
  );
  api.session(
    { method: 'POST', url: 'domain/:id/gluerecord/create/', params: glueCreateParamsSchema, data: glueListDataSchema },
    async ({ actor, params }) => ({
      data: { gluerecords: await domains.glue.create(actor, params.id, params) },
      info: ['domain.glue_created'],
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'domain/:id/gluerecord/:glueId/save/',
      params: glueSaveParamsSchema,
      data: glueListDataSchema,
    },
    async ({ actor, params }) => ({
      data: { gluerecords: await domains.glue.save(actor, params.id, params.glueId, params) },
      info: ['domain.glue_saved'],
    }),
  );
  api.session(
    { method: both, url: 'domain/:id/gluerecord/:glueId/delete/', params: glueParamsSchema, data: glueListDataSchema },
    async ({ actor, params }) => ({
      data: { gluerecords: await domains.glue.remove(actor, params.id, params.glueId) },
      info: ['domain.glue_deleted'],
    }),
  );

  api.session(
    { method: both, url: 'domain/:id/dnssec/list/', params: domainParamsSchema, data: dnssecListDataSchema },
    async ({ actor, params }) => ({
      data: { dnssec: await domains.dnssec.list(actor, params.id) },
    }),
  );
  api.session(
    {
      method: both,
      url: 'domain/:id/dnssec/createinit/',
      params: domainParamsSchema,
      data: dnssecCreateInitDataSchema,
    },
    async ({ actor, params }) => ({
      data: await domains.dnssec.createInit(actor, params.id),
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'domain/:id/dnssec/create/',
      params: dnssecCreateParamsSchema,
      data: dnssecCreateDataSchema,
    },
    async ({ actor, params }) => ({
      data: { dnssec: await domains.dnssec.create(actor, params.id, params) },
      info: ['domain.dnssec_created'],
    }),
  );
  api.session(
    { method: 'POST', url: 'domain/:id/dnssec/fromzone/', params: domainParamsSchema, data: dnssecCreateDataSchema },
    async ({ actor, params }) => ({
      data: { dnssec: await domains.dnssec.fromZone(actor, params.id) },
      info: ['domain.dnssec_created'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'domain/:id/dnssec/:dnssecId/delete/',
      params: dnssecParamsSchema,
      data: dnssecListDataSchema,
    },
    async ({ actor, params }) => ({
      data: { dnssec: await domains.dnssec.remove(actor, params.id, params.dnssecId) },
      info: ['domain.dnssec_deleted'],
    }),
  );

  for (const [path, flag] of [
    ['block', 'blocked'],
    ['transferblock', 'transfer_block'],
    ['whoisprivacy', 'whois_privacy'],
  ] as const) {
    api.session(
      { method: both, url: `domain/:id/toggle/${path}/`, params: domainParamsSchema, data: domainOnlyDataSchema },
      async ({ actor, params }) => ({
        data: await domains.status.toggle(actor, params.id, flag),
      }),
    );
  }

  api.session(
    { method: both, url: 'domain/:id/authcode/', params: domainParamsSchema, data: authCodeDataSchema },
    async ({ actor, params }) => ({
      data: { authCode: await domains.status.transferSecret(actor, params.id, 'authcode') },
    }),
  );
  api.session(
    { method: both, url: 'domain/:id/transferkey/', params: domainParamsSchema, data: transferKeyDataSchema },
    async ({ actor, params }) => ({
      data: { transferkey: await domains.status.transferSecret(actor, params.id, 'transferkey') },
    }),
  );

  for (const [path, roles] of [
    ['owner/save/', ['registrant']],
    ['contacts/save/', ['admin', 'billing', 'tech']],
  ] as const) {
    api.session(
      { method: 'POST', url: `domain/:id/${path}`, params: contactSaveParamsSchema, data: domainDataSchema },
      async ({ actor, params, language }) => {
        if (!(roles as readonly string[]).includes(params.type)) throw FieldErrors.one('type', 'validation.invalid');
        return { data: await contacts.save(actor, params.id, params, language), info: ['domain.contact_saved'] };
      },
    );
  }

  api.session(
    { method: 'POST', url: 'tools/country/', params: countryParamsSchema, data: countryDataSchema },
    async ({ params, language }) => ({
      data: await lookupAddress(params, language),
    }),
  );
}
