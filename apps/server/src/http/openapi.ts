import { CSRF_HEADER } from '@panel247/contract/constants';
import { systemSchema } from '@panel247/contract/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sessionOnly } from '../modules/auth/request-authenticator.ts';
import { PANEL_VERSION } from '../version.ts';
import type { DescribedRoute } from './api-route.ts';
import { errorAnswersOf, errorComponents } from './openapi-error-answers.ts';
import { RAW_OPERATIONS, type RawAnswer, type RawOperation } from './openapi-raw-routes.ts';

/** A route Fastify knows under the base path that the API router did not declare (files, images…). */
export interface RawRoute {
  methods: string[];
  /** Under the base path, Fastify's form (`service/:id/files/download/`). */
  url: string;
}

type JsonSchema = Record<string, unknown>;
type Security = Record<string, string[]>[];

/**
 * The contract's zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), through zod's own
 * converter. `input`: what a client sends (before transforms); a refinement or transform zod
 * cannot express is left open rather than failing the whole document.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** `service/:id/dns/:recordId/` → `service/{id}/dns/{recordId}/` and its path parameters. */
function openApiPath(url: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, names };
}

/** The area a call belongs to, for grouping: `service/:id/mail/…` → `mail`, `domain/:id/` → `domain`. */
function tagOf(url: string): string {
  const parts = url.split('/').filter(Boolean);
  if (parts[0] === 'service' && parts[1]?.startsWith(':') && parts[2] && !parts[2].startsWith(':')) return parts[2];
  if (parts[0] === 'service') return 'hosting';
  if (parts[0] === 'domains') return 'domain';
  return parts[0] ?? 'panel';
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return schema.type === 'object' && typeof schema.properties === 'object'
    ? (schema.properties as Record<string, JsonSchema>)
    : {};
}

function withoutKeys(schema: JsonSchema, keys: string[]): JsonSchema {
  if (keys.length === 0 || schema.type !== 'object' || typeof schema.properties !== 'object') return schema;
  const properties = { ...propertiesOf(schema) };
  for (const key of keys) delete properties[key];
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => !keys.includes(name)) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/**
 * Who may call: what RequestAuthenticator accepts, the session cookie or a token, except on the
 * login's own settings where a token gets 403 (sessionOnly, shared with it).
 */
function callerSecurity(url: string): Security {
  return sessionOnly(url) ? [{ session: [] }] : [{ session: [] }, { bearer: [] }];
}

/** Everything one operation is made of, whichever way its route was registered. */
interface OperationParts {
  method: string;
  url: string;
  security: Security;
  /** The call's parameters (path segments included), as one object schema. */
  params: JsonSchema;
  /** Where the parameters that are not path segments go. */
  paramsIn: 'query' | 'body';
  /** A body of raw bytes of this media type instead of parameters. */
  bytes?: string;
  csrfExempt: boolean;
  answer: JsonSchema;
  besides?: Record<string, JsonSchema>;
  summary?: string;
  /** A creating provisioning call: its Idempotency-Key header is required. */
  idempotent?: boolean;
}

const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    'The same key with the same request is answered as the first time (and done once); with another request, 409.',
  schema: { type: 'string', minLength: 8, maxLength: 255 },
};

function operationOf(parts: OperationParts) {
  const { names } = openApiPath(parts.url);
  const properties = propertiesOf(parts.params);
  // A segment takes its schema from the call's own (an id's pattern), a string where it has none.
  const pathParameters = names.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? { type: 'string' },
  }));
  const fields = withoutKeys(parts.params, names);
  const queryParameters =
    parts.paramsIn === 'query'
      ? Object.entries(propertiesOf(fields)).map(([name, schema]) => ({
          name,
          in: 'query',
          required: Array.isArray(fields.required) && fields.required.includes(name),
          schema,
        }))
      : [];
  const requestBody = parts.bytes
    ? { required: true, content: { [parts.bytes]: { schema: { type: 'string', format: 'binary' } } } }
    : parts.paramsIn === 'body'
      ? {
          required: false,
          content: {
            'application/x-www-form-urlencoded': { schema: fields },
            'application/json': { schema: fields },
          },
        }
      : undefined;
  return {
    operationId: `${parts.method.toLowerCase()}_${parts.url.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    tags: [tagOf(parts.url)],
    ...(parts.summary ? { summary: parts.summary } : {}),
    security: parts.security,
    parameters: [...pathParameters, ...queryParameters, ...(parts.idempotent ? [IDEMPOTENCY_KEY_HEADER] : [])],
    ...(requestBody ? { requestBody } : {}),
    responses: {
      '200': parts.answer,
      ...errorAnswersOf({
        secured: parts.security.length > 0,
        namesIds: names.length > 0,
        csrfExempt: parts.csrfExempt,
      }),
      ...parts.besides,
    },
  };
}

function envelopeAnswer(data: JsonSchema) {
  return {
    description: 'The envelope with the call’s data.',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { system: { $ref: '#/components/schemas/System' }, data },
          required: ['system', 'data'],
        },
      },
    },
  };
}

function rawAnswer(answer: RawAnswer) {
  return { description: answer.description, content: { [answer.mediaType]: { schema: answer.schema } } };
}

/** A route of the router: its contract schemas, its guard (`session` or `public`). */
function routerOperation(route: DescribedRoute, method: 'GET' | 'POST') {
  return operationOf({
    method,
    url: route.url,
    security: route.provider
      ? [{ provider: [] }]
      : route.staff
        ? [{ staff: [] }]
        : route.needsSession
          ? callerSecurity(route.url)
          : [],
    idempotent: route.idempotent === true,
    params: jsonSchema(route.params, 'input'),
    paramsIn: method === 'GET' ? 'query' : 'body',
    // The exempt GETs are app.ts' to say: `config/get/` lists a 403 it never answers, harmlessly.
    csrfExempt: false,
    answer: envelopeAnswer(route.data ? jsonSchema(route.data, 'output') : {}),
  });
}

/** The answer of a raw route openapi-raw-routes.ts does not describe (the OpenAPI test looks for it). */
export const UNDESCRIBED_ANSWER = 'Not described yet: see openapi-raw-routes.ts.';

/**
 * A route registered on Fastify directly, as openapi-raw-routes.ts describes it. One it does not
 * describe is still listed, as a call of the session or a token (what every such handler but the
 * public few does), so that no route is missing; the OpenAPI test fails until it is described.
 */
function rawOperation(route: RawRoute, method: string) {
  const described: RawOperation | undefined = RAW_OPERATIONS[`${method} ${route.url}`];
  const answer = described?.answer;
  return operationOf({
    method,
    url: route.url,
    summary: described?.summary,
    security: described?.access === 'public' ? [] : callerSecurity(route.url),
    params: described?.params ? jsonSchema(described.params, 'input') : {},
    paramsIn: 'query',
    bytes: described?.bytes,
    csrfExempt: described?.csrfExempt ?? false,
    answer: !answer
      ? { description: UNDESCRIBED_ANSWER }
      : 'envelope' in answer
        ? envelopeAnswer(jsonSchema(answer.envelope, 'output'))
        : rawAnswer(answer),
    besides: Object.fromEntries(
      Object.entries(described?.besides ?? {}).map(([status, other]) => [status, rawAnswer(other)]),
    ),
  });
}

/**
 * Builds the OpenAPI 3.1 document of the whole API from the routes the API router declared (their
 * contract schemas) and the raw routes beside them. Parameters of every call can be sent as a
 * form body, JSON or (for GET) the query; path segments are never overridden by them.
 */
export function buildOpenApiDocument(basePath: string, routes: DescribedRoute[], raw: RawRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (url: string, method: string, operation: unknown) => {
    const path = `${basePath}${openApiPath(url).path}`;
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation };
  };
  for (const route of routes) {
    for (const method of route.methods) add(route.url, method, routerOperation(route, method));
  }
  for (const route of raw) {
    for (const method of route.methods) add(route.url, method, rawOperation(route, method));
  }

  const errors = errorComponents((schema) => jsonSchema(schema, 'output'));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Panel247 API',
      version: PANEL_VERSION,
      description:
        `Every call answers an envelope \`{ system, data }\`, a failure too (\`system.valid\` false). ` +
        'Files, images and a few documents of their own (this one, `health/`, the captcha challenge) ' +
        'answer themselves; their failures are the envelope too. A browser session sends ' +
        `its cookie and the \`${CSRF_HEADER}: 1\` header; a script sends \`Authorization: Bearer <token>\` ` +
        '(a personal API token from the preferences) and needs neither. The web app’s realtime socket ' +
        '(`realtime/`, a WebSocket of the browser session) is not an HTTP call and is not listed. ' +
        'See docs/API.md.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'p247_sid',
          description: 'The browser’s session (`__Host-p247_sid` over HTTPS), with the CSRF header.',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token, `p247_…`.' },
        provider: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A provider token, `p247p_…` (`panel provider token add NAME`), for the provisioning API under ' +
            '`provider/`; its creating calls need an `Idempotency-Key` header.',
        },
        staff: {
          type: 'apiKey',
          in: 'cookie',
          name: 'p247_staff',
          description:
            'A session of the provider’s console (`__Host-p247_staff` over HTTPS), with the CSRF header: ' +
            'a staff user’s, made by `console/login/` with a password and a second factor.',
        },
      },
      schemas: { System: jsonSchema(systemSchema, 'output'), ...errors.schemas },
      responses: errors.responses,
    },
    paths,
  };
}

/**
 * Serves the document at `openapi.json`, built once on first request (after every route is
 * registered). The raw routes are collected as Fastify registers them.
 */
export function registerOpenApiRoute(app: FastifyInstance, basePath: string, catalogue: DescribedRoute[]) {
  const registered: RawRoute[] = [];
  app.addHook('onRoute', (route) => {
    // A WebSocket (the realtime socket) answers a plain GET with 404: no HTTP client can call it.
    if (!route.url.startsWith(basePath) || ('websocket' in route && route.websocket)) return;
    // Fastify answers HEAD for every GET (exposeHeadRoutes): the GET's headers, no body, nothing to describe.
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    if (methods.length > 0) registered.push({ methods, url: route.url.slice(basePath.length) });
  });
  let json: string | undefined;
  app.get(`${basePath}openapi.json`, async (_request, reply) => {
    if (!json) {
      // By method: a raw route may share a path with the router's (another method of the same URL).
      const declared = new Set(catalogue.flatMap((route) => route.methods.map((method) => `${method} ${route.url}`)));
      const raw = registered
        .map((route) => ({
          ...route,
          methods: route.methods.filter((method) => !declared.has(`${method} ${route.url}`)),
        }))
        .filter((route) => route.methods.length > 0);
      json = JSON.stringify(buildOpenApiDocument(basePath, catalogue, raw));
    }
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
