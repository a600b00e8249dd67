import { activityExportParamsSchema } from '@panel247/contract/activity';
import { databasesParamsSchema } from '@panel247/contract/databases';
import { dnsServiceParamsSchema } from '@panel247/contract/dns';
import { dnsChangeActionParamsSchema } from '@panel247/contract/dns-history';
import { filesPathParamsSchema, filesUploadDataSchema, filesUploadParamsSchema } from '@panel247/contract/files';
import { applicationParamsSchema } from '@panel247/contract/installer';
import { mailboxParamsSchema } from '@panel247/contract/mail';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** A success or other answer that is not the envelope: a file, an image, a bare JSON document. */
export interface RawAnswer {
  description: string;
  mediaType: string;
  schema: JsonSchema;
}

/**
 * What the document says of a route registered on Fastify directly (not through the API router,
 * because it answers a file, an image or bytes rather than the envelope): the router records its
 * own routes' schemas and guard, these handlers keep theirs in their code, so they are said here.
 * The OpenAPI test checks every such route has its entry and calls each one to prove its security.
 */
export interface RawOperation {
  summary: string;
  /** `caller`: RequestAuthenticator's session or token (the token refused on session-only calls). */
  access: 'public' | 'caller';
  /** One of app.ts' `exemptGets`: a plain GET (a link, an <img>) needs no CSRF header. */
  csrfExempt?: boolean;
  /** Its parameters as the handler parses them: the path's segments and the query. */
  params?: z.ZodType;
  /** A body of raw bytes of this media type (an upload's chunk). */
  bytes?: string;
  /** The success answer: the envelope around this data, or an answer of its own. */
  answer: { envelope: z.ZodType } | RawAnswer;
  /** Answers besides the error envelope's, by status. */
  besides?: Record<string, RawAnswer>;
}

const text = { type: 'string' };
const binary = { type: 'string', format: 'binary' };
const healthSchema = {
  type: 'object',
  properties: {
    status: { enum: ['ok', 'degraded'] },
    serversDown: { type: 'integer', minimum: 1, description: 'How many of the provider’s servers are down.' },
  },
  required: ['status'],
};

/** By method and route as registered under the base path: `GET service/:id/files/download/`. */
export const RAW_OPERATIONS: Record<string, RawOperation> = {
  'GET openapi.json': {
    summary: 'This OpenAPI document.',
    access: 'public',
    csrfExempt: true,
    answer: { description: 'The OpenAPI 3.1 document.', mediaType: 'application/json', schema: { type: 'object' } },
  },
  'GET health/': {
    summary: 'The panel’s state, for load balancers: no versions, hosts or errors.',
    access: 'public',
    csrfExempt: true,
    answer: { description: 'Working (`ok`).', mediaType: 'application/json', schema: healthSchema },
    besides: {
      '503': { description: 'Not working (`degraded`).', mediaType: 'application/json', schema: healthSchema },
    },
  },
  'GET user/login/link/': {
    summary:
      'The provider’s one-time login link (provider/service/{domain}/login-link/): starts the owner’s session ' +
      'and sends the browser to the panel; a used, expired or unknown link, or a suspended account’s, answers ' +
      'a page saying so.',
    access: 'public',
    csrfExempt: true,
    params: z.object({ token: z.string().max(64) }),
    answer: { description: 'Never: the answer is a redirection.', mediaType: 'text/plain', schema: text },
    besides: {
      '303': { description: 'To the panel, logged in.', mediaType: 'text/plain', schema: text },
      '403': {
        description: 'A page saying the link cannot log in (used, expired, unknown, or the account suspended).',
        mediaType: 'text/html',
        schema: text,
      },
    },
  },
  'GET captcha/challenge/': {
    summary: 'An ALTCHA challenge for the login and contact forms (the widget’s own format).',
    access: 'public',
    csrfExempt: true,
    answer: { description: 'The challenge.', mediaType: 'application/json', schema: { type: 'object' } },
    besides: {
      '404': {
        description: 'The panel does not use ALTCHA.',
        mediaType: 'application/json',
        schema: { type: 'object', properties: { error: text }, required: ['error'] },
      },
    },
  },
  'GET hostingapplication/:appId/logo/': {
    summary: 'The logo of an application of the installer’s catalogue (an <img> source).',
    access: 'public',
    csrfExempt: true,
    params: applicationParamsSchema,
    answer: { description: 'The image.', mediaType: 'image/*', schema: binary },
  },
  'GET activity/export/': {
    summary: 'The activity log as CSV, with the same filters as `activity/list/`.',
    access: 'caller',
    params: activityExportParamsSchema,
    answer: { description: 'The CSV file.', mediaType: 'text/csv', schema: text },
  },
  'GET service/:id/dns/export/': {
    summary: 'The zone as a zone file.',
    access: 'caller',
    params: dnsServiceParamsSchema,
    answer: { description: 'The zone file.', mediaType: 'text/dns', schema: text },
  },
  'GET service/:id/dns/history/:changeId/export/': {
    summary: 'The zone as it was after a change, as a zone file.',
    access: 'caller',
    params: dnsChangeActionParamsSchema,
    answer: { description: 'The zone file.', mediaType: 'text/dns', schema: text },
  },
  'GET service/:id/correo/:accountId/mobileconfig/': {
    summary: 'A mailbox’s configuration profile for Apple devices (no password in it).',
    access: 'caller',
    params: mailboxParamsSchema,
    answer: { description: 'The profile.', mediaType: 'application/x-apple-aspen-config', schema: binary },
  },
  'GET service/:id/ddbb/:did/dump/': {
    summary: 'A database’s SQL dump, streamed as it is produced.',
    access: 'caller',
    params: databasesParamsSchema,
    answer: { description: 'The dump.', mediaType: 'application/sql', schema: text },
  },
  'GET service/:id/files/download/': {
    summary: 'A file of the service’s home (or of an FTP account’s folder, `ftp`).',
    access: 'caller',
    csrfExempt: true,
    params: filesPathParamsSchema,
    answer: { description: 'The file.', mediaType: 'application/octet-stream', schema: binary },
  },
  'GET service/:id/files/zip/': {
    summary: 'A folder (or one file) as a .zip.',
    access: 'caller',
    csrfExempt: true,
    params: filesPathParamsSchema,
    answer: { description: 'The archive.', mediaType: 'application/zip', schema: binary },
  },
  'PUT service/:id/files/upload/': {
    summary:
      'One chunk of an upload into the folder `path`, at `offset` of a file of `size` bytes: the upload ' +
      'ends with the chunk that reaches `size`. `files/upload/status/` says how much arrived.',
    access: 'caller',
    params: filesUploadParamsSchema,
    bytes: 'application/octet-stream',
    answer: { envelope: filesUploadDataSchema },
  },
};
