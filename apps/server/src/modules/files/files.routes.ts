import type { Readable } from 'node:stream';
import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  filesCopyParamsSchema,
  filesCreateFolderParamsSchema,
  filesExtractDataSchema,
  filesListDataSchema,
  filesModeParamsSchema,
  filesPathParamsSchema,
  filesReadDataSchema,
  filesRenameParamsSchema,
  filesSaveParamsSchema,
  filesUploadDataSchema,
  filesUploadParamsSchema,
  filesUploadStatusParamsSchema,
} from '@panel247/contract/files';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { NotFoundError } from '../../errors.ts';
import type { ActivityRecorder, ApiRouter, Authenticator } from '../../http/api-route.ts';
import { clientCallOf } from '../../http/client-call-of.ts';
import { contentDisposition, sendEnvelope, successEnvelopeJson } from '../../http/envelope.ts';
import { toFieldErrors } from '../../http/zod-field-errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { FilesService } from './files.service.ts';

/** Reads answer GET and POST; changes are POST. Download and upload carry the bytes themselves. */
const UPLOAD_ROUTE = { url: 'service/:id/files/upload/' };

export function registerFilesRoutes(
  api: ApiRouter,
  files: FilesService,
  options: { app: FastifyInstance; basePath: string; auth: Authenticator; activity?: ActivityRecorder },
) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  const root = (params: { id: number; ftp?: number | undefined }) => ({ id: params.id, ftp: params.ftp });

  api.session(
    { method: both, url: 'service/:id/files/list/', params: filesPathParamsSchema, data: filesListDataSchema },
    async ({ actor, params }) => ({ data: await files.list(actor, root(params), params.path) }),
  );
  api.session(
    { method: both, url: 'service/:id/files/read/', params: filesPathParamsSchema, data: filesReadDataSchema },
    async ({ actor, params }) => ({
      data: { path: params.path, content: await files.read(actor, root(params), params.path) },
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/files/save/', params: filesSaveParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await files.save(actor, root(params), params.path, params.content);
      return { data: {}, info: ['files.saved'] };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/files/mkdir/', params: filesCreateFolderParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await files.createFolder(actor, root(params), params.path, params.name);
      return { data: {}, info: ['files.folder_created'] };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/files/rename/', params: filesRenameParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await files.rename(actor, root(params), params.path, params.name);
      return { data: {}, info: ['files.renamed'] };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/files/delete/', params: filesPathParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await files.remove(actor, root(params), params.path);
      return { data: {}, info: ['files.deleted'] };
    },
  );
  for (const how of ['copy', 'move'] as const) {
    api.session(
      { method: 'POST', url: `service/:id/files/${how}/`, params: filesCopyParamsSchema, data: emptyDataSchema },
      async ({ actor, params }) => {
        await files.copyOrMove(actor, root(params), params.path, params.to, how);
        return { data: {}, info: [how === 'copy' ? 'files.copied' : 'files.moved'] };
      },
    );
  }
  api.session(
    { method: 'POST', url: 'service/:id/files/chmod/', params: filesModeParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await files.setMode(actor, root(params), params.path, params.mode);
      return { data: {}, info: ['files.mode_changed'] };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/files/extract/', params: filesPathParamsSchema, data: filesExtractDataSchema },
    async ({ actor, params }) => ({
      data: { path: await files.extract(actor, root(params), params.path) },
      info: ['files.extracted'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/files/upload/status/',
      params: filesUploadStatusParamsSchema,
      data: filesUploadDataSchema,
    },
    async ({ actor, params }) => ({
      data: await files.uploadStatus(actor, root(params), params.path, params.name),
    }),
  );

  const { app, basePath, auth } = options;
  /** A download: the session checked, the path parsed like the envelope calls', the bytes streamed. */
  const download = (
    name: 'download' | 'zip',
    type: string,
    open: (
      actor: Actor,
      params: z.output<typeof filesPathParamsSchema>,
    ) => Promise<{ name: string; size?: number; stream: Readable }>,
  ) =>
    app.get(`${basePath}service/:id/files/${name}/`, async (request, reply) => {
      const actor = await auth.authenticate(clientCallOf(request, reply));
      const parsed = filesPathParamsSchema.safeParse({ ...(request.query as object), ...(request.params as object) });
      if (!parsed.success) throw new NotFoundError();
      const file = await open(actor, parsed.data);
      if (file.size !== undefined) reply.header('content-length', file.size);
      return reply
        .type(type)
        .header('content-disposition', contentDisposition(file.name))
        .header('cache-control', 'no-store')
        .send(file.stream);
    });
  download('download', 'application/octet-stream', (actor, params) => files.download(actor, root(params), params.path));
  // a folder (or one file) as a .zip, its size unknown until it is written
  download('zip', 'application/zip', (actor, params) => files.zip(actor, root(params), params.path));

  // One chunk of an upload: the raw bytes as the body. The parser hands the request's stream
  // on untouched (the driver bounds what it takes); it lives in this scope only.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null, undefined));
    scope.put(`${basePath}service/:id/files/upload/`, async (request, reply) => {
      const call = clientCallOf(request, reply);
      const actor = await auth.authenticate(call);
      const input = { ...(request.query as object), ...(request.params as object) } as Record<string, unknown>;
      const parsed = filesUploadParamsSchema.safeParse(input);
      if (!parsed.success) throw toFieldErrors(parsed.error, input);
      const { path, name, size, offset } = parsed.data;
      actor.activity = {};
      const received = await files.uploadChunk(
        actor,
        root(parsed.data),
        { folder: path, name, size, offset },
        request.raw,
      );
      // the log keeps an upload once, when its last chunk is in
      if (received.done) await options.activity?.recordChange(call, actor, UPLOAD_ROUTE, { path, name, size });
      return sendEnvelope(reply, 200, successEnvelopeJson(JSON.stringify(received), [], null));
    });
  });
}
