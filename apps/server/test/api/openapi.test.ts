import * as contractRoutes from '@panel247/contract/routes';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDESCRIBED_ANSWER } from '../../src/http/openapi.ts';
import { errorEnvelopeSchema } from '../../src/http/openapi-error-answers.ts';
import { RAW_OPERATIONS } from '../../src/http/openapi-raw-routes.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, { $ref?: string; description?: string }>;
}

interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: Record<string, { schema: { $ref?: string } }> }> };
}

/** Every path the contract names (its constants and path builders), with `{}` for each parameter. */
function contractPaths(): string[] {
  const paths: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') paths.push(value);
    else if (typeof value === 'function') {
      const args = Array.from({ length: value.length }, () => '\u0000');
      paths.push(String(value(...args)).replaceAll('\u0000', '{}'));
    } else if (value && typeof value === 'object') for (const item of Object.values(value)) visit(item);
  };
  visit(contractRoutes);
  return paths;
}

const normalised = (path: string) => path.replace(/\{[^}]*\}/g, '{}').replace(/:[A-Za-z0-9_]+/g, '{}');

/**
 * Every route Fastify serves and its methods, read from the router's own tree (`printRoutes`),
 * not from the hook the document is built from. With `commonPrefix: false` each line is a path
 * segment (after four characters per level of depth) with its methods in parentheses; a line it
 * does not understand fails the test rather than being skipped.
 */
function servedRoutes(app: FastifyInstance): { url: string; methods: string[] }[] {
  const routes: { url: string; methods: string[] }[] = [];
  const segments: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    if (line.trim() === '') continue;
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) throw new Error(`a line of printRoutes not understood: ${line}`);
    segments.length = (match[1] ?? '').length / 4;
    segments.push(match[2] ?? '');
    if (match[3]) routes.push({ url: segments.join(''), methods: match[3].split(', ') });
  }
  return routes;
}

/** Each operation of the document with its method, path (under the base path) and security. */
function operationsOf(document: Document, basePath: string) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: path.slice(basePath.length),
      operation,
      security: operation.security ?? [],
    })),
  );
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: Document;
  let served: { url: string; methods: string[] }[];

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    // A plain GET, as curl sends it: no cookie, no CSRF header.
    const response = await t.app.inject({ method: 'GET', url: `${t.config.basePath}openapi.json` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.json();
    served = servedRoutes(t.app);
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document, every $ref resolving', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is one a client generator can use: unique operation ids, a parameter for each path segment', () => {
    const operations = operationsOf(document, t.config.basePath);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const unnamed = operations.flatMap(({ method, path, operation }) => {
      const segments = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const named = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      return segments.sort().join() === named.sort().join() ? [] : [`${method} ${path}`];
    });
    expect(unnamed).toEqual([]);
  });

  it('describes every route of the contract but the realtime socket', () => {
    const described = new Set(
      Object.keys(document.paths).map((path) => normalised(path.slice(t.config.basePath.length))),
    );
    // The socket is a WebSocket of the browser's session: a plain GET of it answers 404, and
    // OpenAPI has no way to say what it pushes. The document's description names it instead.
    const missing = contractPaths().filter(
      (path) => path !== contractRoutes.API.realtime && !described.has(normalised(path)),
    );
    expect(missing).toEqual([]);
    expect(contractPaths().length).toBeGreaterThan(100);
  });

  it('lists every route and method Fastify serves under the base path', () => {
    const base = t.config.basePath;
    const listed = new Set(operationsOf(document, base).map(({ method, path }) => `${method} ${normalised(path)}`));
    const missing: string[] = [];
    const underBase = served.filter((route) => route.url.startsWith(base));
    for (const route of underBase) {
      const path = route.url.slice(base.length);
      // Not an HTTP call (see above): the only route left out.
      if (path === contractRoutes.API.realtime) continue;
      for (const method of route.methods) {
        // Fastify answers HEAD for every GET (exposeHeadRoutes), the GET's headers without its body:
        // no operation of its own, but never a HEAD without its GET.
        const wanted = method === 'HEAD' ? 'GET' : method;
        if (!listed.has(`${wanted} ${normalised(path)}`)) missing.push(`${method} ${route.url}`);
      }
    }
    expect(missing).toEqual([]);
    // The walk itself read the tree: the router's calls, the raw ones, every method among them.
    expect(underBase.length).toBeGreaterThan(150);
    expect(underBase).toContainEqual({ url: `${base}service/:id/files/upload/`, methods: ['PUT'] });
    expect(document.paths[`${base}service/{id}/files/upload/`]?.put).toBeDefined();
  });

  it('describes each route registered outside the API router, and nothing else', () => {
    const base = t.config.basePath;
    const undescribed = operationsOf(document, base)
      .filter(({ operation }) => operation.responses['200']?.description === UNDESCRIBED_ANSWER)
      .map(({ method, path }) => `${method} ${path}`);
    expect(undescribed).toEqual([]);
    // An entry for a route that no longer exists would describe nothing: each names a served one.
    const servedMethods = new Set(served.flatMap((route) => route.methods.map((method) => `${method} ${route.url}`)));
    const stale = Object.keys(RAW_OPERATIONS).filter((key) => {
      const [method, url] = key.split(' ');
      return !servedMethods.has(`${method} ${base}${url}`);
    });
    expect(stale).toEqual([]);
  });

  it('gives every operation its security and its failures, the error envelope by reference', () => {
    const base = t.config.basePath;
    const wrong: string[] = [];
    for (const { method, path, operation } of operationsOf(document, base)) {
      const name = `${method} ${path}`;
      if (!Array.isArray(operation.security)) wrong.push(`${name}: no security`);
      const secured = (operation.security ?? []).length > 0;
      const statuses = Object.keys(operation.responses);
      const required = ['400', 'default', ...(secured ? ['401', '403'] : []), ...(path.includes('{') ? ['404'] : [])];
      for (const status of required) if (!statuses.includes(status)) wrong.push(`${name}: ${status} missing`);
      if (!secured && statuses.includes('401')) wrong.push(`${name}: 401 listed on a public call`);
      for (const [status, answer] of Object.entries(operation.responses)) {
        const failure = status === 'default' || Number(status) >= 400;
        const shared = answer.$ref?.startsWith('#/components/responses/');
        // A captcha without ALTCHA and a degraded health check answer their own JSON, said inline;
        // a refused login link, a page for the browser that opened it.
        const ownAnswer = ['captcha/challenge/', 'health/', 'user/login/link/'].includes(path);
        if (failure && !shared && !ownAnswer) {
          wrong.push(`${name}: ${status} not the shared error answer`);
        }
      }
    }
    expect(wrong).toEqual([]);
    for (const answer of Object.values(document.components.responses)) {
      expect(answer.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    }
  });

  it('documents the provisioning API: the provider token only, and the Idempotency-Key of its creating call', () => {
    const create = document.paths[`${t.config.basePath}provider/account/create/`]?.post;
    expect(create?.security).toEqual([{ provider: [] }]);
    expect(JSON.stringify(create?.parameters)).toContain('"name":"Idempotency-Key","in":"header","required":true');
    const suspend = document.paths[`${t.config.basePath}provider/service/{domain}/suspend/`]?.post;
    expect(suspend?.security).toEqual([{ provider: [] }]);
    expect(JSON.stringify(suspend?.parameters)).not.toContain('Idempotency-Key');
  });

  it('documents the API tokens: a session call is open to a Bearer token, its parameters come from the contract', () => {
    const records = document.paths[`${t.config.basePath}service/{id}/dns/create/`]?.post;
    expect(records?.security).toEqual([{ session: [] }, { bearer: [] }]);
    const profile = document.paths[`${t.config.basePath}service/{id}/correo/{accountId}/mobileconfig/`]?.get;
    expect(profile?.security).toEqual([{ session: [] }, { bearer: [] }]);
    // The login's own settings take the session only (a token gets 403 there), user/info/ aside.
    const create = document.paths[`${t.config.basePath}user/apitokens/create/`]?.post;
    expect(create?.security).toEqual([{ session: [] }]);
    expect(JSON.stringify(create?.requestBody)).toContain('expiresInDays');
    expect(document.paths[`${t.config.basePath}user/info/`]?.post?.security).toEqual([{ session: [] }, { bearer: [] }]);
    const login = document.paths[`${t.config.basePath}user/login/`]?.post;
    expect(login?.security).toEqual([]);
    // The activity export takes a session or token like the list it exports, with the list's filters.
    const exported = document.paths[`${t.config.basePath}activity/export/`]?.get;
    expect(exported?.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(exported?.parameters?.length).toBeGreaterThan(0);
  });
});

/**
 * The document's security and failures are what the server does: every operation is called the
 * way the document says it may not be, and answers accordingly, with the documented error envelope.
 */
describe.each(DATABASE_KINDS)('the OpenAPI document’s security, called on %s', (kind) => {
  let t: TestApp;
  let operations: ReturnType<typeof operationsOf>;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const response = await t.app.inject({ method: 'GET', url: `${t.config.basePath}openapi.json` });
    operations = operationsOf(response.json(), t.config.basePath);
  });
  afterAll(() => t.close());

  /** The operation called with these headers and no parameters; each path segment an id. */
  function call(method: string, path: string, headers: Record<string, string>) {
    const url = `${t.config.basePath}${path.replace(/\{\w+\}/g, '1')}`;
    const body =
      method === 'POST'
        ? { headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' }
        : method === 'PUT'
          ? { headers: { ...headers, 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(0) }
          : { headers };
    return t.app.inject({ method: method as 'GET', url, ...body });
  }

  const errorOf = (body: string) => errorEnvelopeSchema.safeParse(JSON.parse(body));

  it('answers 401 without a session or token exactly where the document asks for one', async () => {
    const wrong: string[] = [];
    for (const { method, path, security } of operations) {
      // A browser's call: the CSRF header, no cookie.
      const answer = await call(method, path, { 'x-dd-request': '1' });
      const secured = security.length > 0;
      if ((answer.statusCode === 401) !== secured) wrong.push(`${method} ${path}: ${answer.statusCode}`);
      else if (secured && !errorOf(answer.body).success) wrong.push(`${method} ${path}: ${answer.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect(operations.length).toBeGreaterThan(200);
  });

  it('refuses a bad token with 401 where the document offers tokens, 403 where it offers the session only', async () => {
    const wrong: string[] = [];
    for (const { method, path, security } of operations) {
      if (security.length === 0) continue;
      const answer = await call(method, path, { authorization: `Bearer p247_${'x'.repeat(43)}` });
      // the console's calls know staff sessions only: a customer's token is no credential there (401)
      const expected = security.some((way) => 'bearer' in way || 'provider' in way || 'staff' in way) ? 401 : 403;
      const envelope = errorOf(answer.body);
      if (answer.statusCode !== expected || !envelope.success || envelope.data.system.statusCode !== expected) {
        wrong.push(`${method} ${path}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets a plain GET through the CSRF rule where the document lists no 403', async () => {
    const exempt = operations.filter(({ method, operation }) => method === 'GET' && !operation.responses['403']);
    const refused: string[] = [];
    for (const { method, path } of exempt) {
      const answer = await call(method, path, {});
      if (answer.statusCode === 403) refused.push(`${method} ${path}`);
    }
    expect(refused).toEqual([]);
    expect(exempt.map(({ path }) => path)).toEqual(expect.arrayContaining(['health/', 'openapi.json']));
  });
});
