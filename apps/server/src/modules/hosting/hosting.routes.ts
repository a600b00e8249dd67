import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  errorLogDataSchema,
  hostingPhpParamsSchema,
  hostingServiceDataSchema,
  hostingServiceParamsSchema,
  redirectionCreateParamsSchema,
  redirectionListDataSchema,
  redirectionListParamsSchema,
  redirectionOneDataSchema,
  redirectionParamsSchema,
  redirectionSaveParamsSchema,
  subdomainCreateParamsSchema,
  subdomainListDataSchema,
  subdomainListParamsSchema,
  subdomainOneDataSchema,
  subdomainParamsSchema,
  subdomainSaveParamsSchema,
  webConstructorDataSchema,
  webConstructorLoginDataSchema,
  webConstructorLoginParamsSchema,
} from '@panel247/contract/hosting';
import type { FastifyInstance } from 'fastify';
import type { ApiRouter } from '../../http/api-route.ts';
import { applyNowInfo } from '../../jobs/service-changes.ts';
import { registerCertificateRoutes } from './certificate.routes.ts';
import type { HostingServices } from './create-hosting-service.ts';

/** Reads answer GET and POST; changes are POST (GET stays accepted for the spec's GET actions). */
export function registerHostingRoutes(api: ApiRouter, hosting: HostingServices, options: { app: FastifyInstance }) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  options.app.addHook('onClose', () => hosting.close());
  registerCertificateRoutes(api, hosting.certificates);

  api.session(
    { method: both, url: 'service/:id/', params: hostingServiceParamsSchema, data: hostingServiceDataSchema },
    async ({ actor, params }) => ({ data: { service: await hosting.overview.get(actor, params.id) } }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/php/', params: hostingPhpParamsSchema, data: hostingServiceDataSchema },
    async ({ actor, params }) => ({
      data: { service: await hosting.overview.setPhpVersion(actor, params.id, params.phpVersion) },
      info: ['hosting.php_saved'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/parking/active/',
      params: hostingServiceParamsSchema,
      data: hostingServiceDataSchema,
    },
    async ({ actor, params }) => ({
      data: { service: await hosting.overview.setParking(actor, params.id, true) },
      info: ['hosting.parking_on'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/parking/disable/',
      params: hostingServiceParamsSchema,
      data: hostingServiceDataSchema,
    },
    async ({ actor, params }) => ({
      data: { service: await hosting.overview.setParking(actor, params.id, false) },
      info: ['hosting.parking_off'],
    }),
  );

  api.session(
    {
      method: 'POST',
      url: 'service/:id/web/apply/',
      params: hostingServiceParamsSchema,
      data: hostingServiceDataSchema,
    },
    async ({ actor, params }) => {
      const { service, applied } = await hosting.overview.applyNow(actor, params.id);
      return { data: { service }, info: [applyNowInfo(applied, service.applying, 'web.applied')] };
    },
  );
  api.session(
    { method: both, url: 'service/:id/logerror/', params: hostingServiceParamsSchema, data: errorLogDataSchema },
    async ({ actor, params }) => ({ data: { logs: await hosting.overview.errorLog(actor, params.id) } }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/webconstructor/',
      params: hostingServiceParamsSchema,
      data: webConstructorDataSchema,
    },
    async ({ actor, params }) => ({ data: { selected: await hosting.siteBuilder.selectedSite(actor, params.id) } }),
  );
  api.session(
    {
      // (sic) the spec's spelling of the path.
      method: 'POST',
      url: 'service/:id/webcontructorlogin/',
      params: webConstructorLoginParamsSchema,
      data: webConstructorLoginDataSchema,
    },
    async ({ actor, params, language }) => ({
      data: { url: await hosting.siteBuilder.login(actor, params.id, params.subdomain, language) },
    }),
  );

  api.session(
    {
      method: both,
      url: 'service/:id/redirection/list/',
      params: redirectionListParamsSchema,
      data: redirectionListDataSchema,
    },
    async ({ actor, params }) => ({ data: await hosting.redirections.list(actor, params) }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/redirection/create/',
      params: redirectionCreateParamsSchema,
      data: redirectionOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { redirection: await hosting.redirections.create(actor, params.id, params) },
      info: ['hosting.redirection_created'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/redirection/:rid/',
      params: redirectionParamsSchema,
      data: redirectionOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { redirection: await hosting.redirections.get(actor, params.id, params.rid) },
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/redirection/:rid/save/',
      params: redirectionSaveParamsSchema,
      data: redirectionOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { redirection: await hosting.redirections.save(actor, params.id, params.rid, params) },
      info: ['hosting.redirection_saved'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/redirection/:rid/delete/',
      params: redirectionParamsSchema,
      data: emptyDataSchema,
    },
    async ({ actor, params }) => {
      await hosting.redirections.remove(actor, params.id, params.rid);
      return { data: {}, info: ['hosting.redirection_deleted'] };
    },
  );

  api.session(
    {
      method: both,
      url: 'service/:id/subdomain/list/',
      params: subdomainListParamsSchema,
      data: subdomainListDataSchema,
    },
    async ({ actor, params }) => ({ data: await hosting.sites.list(actor, params) }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/subdomain/create/',
      params: subdomainCreateParamsSchema,
      data: subdomainOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { subdomain: await hosting.sites.create(actor, params.id, params) },
      info: ['hosting.subdomain_created'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/subdomain/:sid/', params: subdomainParamsSchema, data: subdomainOneDataSchema },
    async ({ actor, params }) => ({ data: { subdomain: await hosting.sites.get(actor, params.id, params.sid) } }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/subdomain/:sid/save/',
      params: subdomainSaveParamsSchema,
      data: subdomainOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { subdomain: await hosting.sites.save(actor, params.id, params.sid, params) },
      info: ['hosting.subdomain_saved'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/subdomain/:sid/delete/', params: subdomainParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await hosting.sites.remove(actor, params.id, params.sid);
      return { data: {}, info: ['hosting.subdomain_deleted'] };
    },
  );
}
