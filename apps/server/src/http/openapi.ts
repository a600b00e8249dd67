import { CSRF_HEADER } from '@panel247/contract/constants';
import { systemSchema } from '@panel247/contract/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sessionOnly } from '../modules/auth/request-authenticator.ts';
import { PANEL_VERSION } from '../version.ts';
import type { DescribedRoute } from './api-route.ts';

/** A route Fastify knows under the base path that the API router did not declare (files, images…). */
export interface RawRoute {
  methods: string[];
  url: string;
}

type JsonSchema = Record<string, unknown>;

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

function withoutKeys(schema: JsonSchema, keys: string[]): JsonSchema {
  if (keys.length === 0 || schema.type !== 'object' || typeof schema.properties !== 'object') return schema;
  const properties = { ...(schema.properties as Record<string, unknown>) };
  for (const key of keys) delete properties[key];
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => !keys.includes(name)) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

const ERROR_RESPONSES = {
  '401': { description: 'No valid session, or the API token is malformed, unknown, expired or revoked.' },
  '403': { description: 'Not allowed: the level is read-only, CSRF rule failed, or the call needs the session.' },
  '404': { description: 'Unknown id: also the answer for a resource of another account or outside the token.' },
  '400': { description: 'Invalid parameters: `system.errors` and `system.inputs` name each field.' },
};

/**
 * Builds the OpenAPI 3.1 document of the whole API from the routes the API router declared (their
 * contract schemas) and the few raw routes beside them. Parameters of every call can be sent as
 * a form body, JSON or (for GET) the query; path segments are never overridden by them.
 */
export function buildOpenApiDocument(basePath: string, routes: DescribedRoute[], raw: RawRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const pathItem = (path: string) => {
    paths[path] ??= {};
    return paths[path];
  };
  const security = [{ session: [] }, { bearer: [] }];
  // What RequestAuthenticator does: a token gets 403 on a session-only call.
  const securityOf = (url: string) => (sessionOnly(url) ? [{ session: [] }] : security);
  const envelopeOf = (data: JsonSchema) => ({
    type: 'object',
    properties: { system: { $ref: '#/components/schemas/System' }, data },
    required: ['system', 'data'],
  });

  for (const route of routes) {
    const { path, names } = openApiPath(route.url);
    const fields = withoutKeys(jsonSchema(route.params, 'input'), names);
    const data = route.data ? jsonSchema(route.data, 'output') : {};
    const pathParameters = names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    const item = pathItem(`${basePath}${path}`);
    for (const method of route.methods) {
      const queryParameters =
        method === 'GET' && fields.type === 'object'
          ? Object.entries((fields.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
              name,
              in: 'query',
              required: Array.isArray(fields.required) && fields.required.includes(name),
              schema,
            }))
          : [];
      item[method.toLowerCase()] = {
        operationId: `${method.toLowerCase()}_${route.url.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
        tags: [tagOf(route.url)],
        security: route.needsSession ? securityOf(route.url) : [],
        parameters: [...pathParameters, ...queryParameters],
        ...(method === 'POST'
          ? {
              requestBody: {
                required: false,
                content: {
                  'application/x-www-form-urlencoded': { schema: fields },
                  'application/json': { schema: fields },
                },
              },
            }
          : {}),
        responses: {
          '200': {
            description: 'The envelope with the call’s data.',
            content: { 'application/json': { schema: envelopeOf(data) } },
          },
          ...ERROR_RESPONSES,
        },
      };
    }
  }

  for (const route of raw) {
    const url = route.url.slice(basePath.length);
    const { path, names } = openApiPath(url);
    const item = pathItem(`${basePath}${path}`);
    for (const method of route.methods) {
      const key = method.toLowerCase();
      if (key !== 'get' && key !== 'post') continue;
      item[key] ??= {
        operationId: `${key}_${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
        tags: [tagOf(url)],
        description: 'Not an envelope: a file, an image, a socket or this document.',
        // Those naming a resource go through the same guard as every session call.
        ...(names.length > 0 && !url.startsWith('hostingapplication/') ? { security: securityOf(url) } : {}),
        parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        responses: { '200': { description: 'The file, image or answer itself.' }, ...ERROR_RESPONSES },
      };
    }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Panel247 API',
      version: PANEL_VERSION,
      description:
        `Every call answers an envelope \`{ system, data }\`. A browser session sends its cookie and the ` +
        `\`${CSRF_HEADER}: 1\` header; a script sends \`Authorization: Bearer <token>\` (a personal API token ` +
        'from the preferences) and needs neither. See docs/API.md.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'p247_sid' },
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token, `p247_…`.' },
      },
      schemas: { System: jsonSchema(systemSchema, 'output') },
    },
    paths,
  };
}

/**
 * Serves the document at `openapi.json`, built once on first request (after every route is
 * registered). The raw routes are collected as Fastify registers them.
 */
export function registerOpenApiRoute(app: FastifyInstance, basePath: string, catalogue: DescribedRoute[]) {
  const raw: RawRoute[] = [];
  const declared = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(basePath)) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    raw.push({ methods, url: route.url });
  });
  let json: string | undefined;
  app.get(`${basePath}openapi.json`, async (_request, reply) => {
    if (!json) {
      for (const route of catalogue) declared.add(`${basePath}${route.url}`);
      const others = raw.filter((route) => !declared.has(route.url));
      json = JSON.stringify(buildOpenApiDocument(basePath, catalogue, others));
    }
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
