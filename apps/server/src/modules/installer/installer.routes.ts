import {
  applicationListDataSchema,
  applicationParamsSchema,
  installAppDataSchema,
  installAppParamsSchema,
} from '@panel247/contract/installer';
import { jobParamsSchema } from '@panel247/contract/job';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../../errors.ts';
import type { ApiRouter } from '../../http/api-route.ts';
import type { InstallerService } from './installer.service.ts';

/** A logo is an image from the provider's catalogue; SVG may hold script, so it is served sandboxed. */
const LOGO_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function registerInstallerRoutes(
  api: ApiRouter,
  installer: InstallerService,
  options: { app: FastifyInstance; basePath: string },
) {
  api.session(
    { method: ['GET', 'POST'], url: 'hostingapplication/list/', params: z.object({}), data: applicationListDataSchema },
    async ({ language }) => ({ data: { apps: await installer.list(language) } }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/installapp/', params: installAppParamsSchema, data: installAppDataSchema },
    async ({ actor, params, language }) => {
      const job = await installer.install(actor, params.id, params, language);
      return {
        data: { job },
        info: ['installer.started'],
        job: { id: job.id, status: job.status, progress: job.progress },
      };
    },
  );
  api.session(
    { method: ['GET', 'POST'], url: 'job/:jobId/', params: jobParamsSchema, data: installAppDataSchema },
    async ({ actor, params, language }) => {
      const job = await installer.job(actor, params.jobId, language);
      return { data: { job }, job: { id: job.id, status: job.status, progress: job.progress } };
    },
  );

  // An <img> cannot send the API's headers; the catalogue is the same for everyone, so no session either.
  options.app.get(`${options.basePath}hostingapplication/:appId/logo/`, async (request, reply) => {
    const parsed = applicationParamsSchema.safeParse(request.params);
    const logo = parsed.success ? await installer.logo(parsed.data.appId) : undefined;
    if (!logo) throw new NotFoundError();
    return reply
      .type(logo.type)
      .header('cache-control', 'public, max-age=3600')
      .header('content-security-policy', LOGO_POLICY)
      .header('x-content-type-options', 'nosniff')
      .send(logo.stream);
  });
}
