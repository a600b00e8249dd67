import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { Kysely, SqliteDialect } from 'kysely';
import { buildApp } from '../src/app.ts';
import { type Db, nowSeconds } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import { clientCallOf } from '../src/http/client-call-of.ts';
import { computeSecurityHeaders, PANEL_HELMET_OPTIONS } from '../src/http/security-headers.ts';
import { AdminService, allKeys } from '../src/modules/admin/admin.service.ts';
import { SessionService } from '../src/modules/auth/session.service.ts';
import { BENCH_PASSWORD, openBenchRuntime } from './bench-runtime.ts';
import { answerParent } from './bench-support.ts';

/**
 * The servers under test, in processes of their own so that autocannon (in the parent) and the
 * server each get one of the machine's cores instead of sharing one event loop. Configured through
 * the environment by api.bench.ts; reports its ports and session cookies over IPC.
 *
 * `BENCH_ROLE=bare` starts only the bare Fastify route, in its own process: sharing a process
 * with the panel, its traffic made Fastify's shared code polymorphic and slowed the panel's next
 * round by up to a third (the same (b) measured 27,700 req/s alone and 19,000-24,000 between
 * rounds of (a)), so the ratio measured the interference rather than the panel.
 */

export interface BareReady {
  barePort: number;
}

export interface BenchReady {
  appPort: number;
  kind: string;
  smallCookie: string;
  bigCookie: string;
  resources: number;
  insertMs: number;
  listBytes: number;
  /** --diagnose: path → port of the ladder servers, each adding one layer to the bare route. */
  ladder: Record<string, number>;
}

/**
 * The fix proposed for db/database.ts, tried here: Kysely's SQLite driver calls `prepare(sql)` on
 * every query, and preparing costs several times what running a small query does. Kysely compiles
 * a query of the same shape to the same SQL, so caching statements by SQL text hits nearly always.
 */
function openWithStatementCache(file: string): Db {
  const sqlite = new SQLite(file);
  sqlite.pragma('busy_timeout = 5000');
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      if (statements.size < 500) statements.set(sql, statement);
    }
    return statement;
  };
  const database = { prepare, close: () => sqlite.close() };
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: database as never }) });
}

/**
 * Servers that each add one layer of the real app to the bare route, to see what each one costs:
 * the security headers as app.ts sets them, and the session lookup (with and without a statement cache).
 */
async function startLadder(
  sessions: SessionService,
  cachedSessions?: SessionService,
): Promise<{ servers: FastifyInstance[]; ports: Record<string, number> }> {
  const answer = { hello: 'world', n: 1 };
  const variants: Record<string, (app: FastifyInstance) => Promise<void>> = {
    'security-headers': async (app) => {
      // The app's own way: helmet's headers computed once, set in one call per request.
      const headers = computeSecurityHeaders(PANEL_HELMET_OPTIONS);
      app.addHook('onRequest', (_request, reply, done) => {
        reply.headers(headers);
        done();
      });
    },
    'cookie-session-stmt-cache': async (app) => {
      await app.register(fastifyCookie);
      app.addHook('onRequest', async (request, reply) => {
        await cachedSessions?.authenticate(clientCallOf(request, reply));
      });
    },
    'cookie-session': async (app) => {
      await app.register(fastifyCookie);
      app.addHook('onRequest', async (request, reply) => {
        await sessions.authenticate(clientCallOf(request, reply));
      });
    },
  };
  // The statement cache is a SQLite matter (PostgreSQL parses on the server).
  if (!cachedSessions) delete variants['cookie-session-stmt-cache'];
  const servers: FastifyInstance[] = [];
  const ports: Record<string, number> = {};
  for (const [name, setup] of Object.entries(variants)) {
    const app = Fastify({ logger: false });
    await setup(app);
    app.get('/bare', async () => answer);
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    servers.push(app);
    ports[name] = Number(new URL(address).port);
  }
  return { servers, ports };
}

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 10_000);

async function main() {
  const { config, runtime, dataDir } = await openBenchRuntime();
  const admin = new AdminService(runtime.db, runtime.events, () => nowSeconds());
  const brand = 'default';

  await admin.ensureAccount('small.bench.test', brand);
  await admin.ensureUser('small.bench.test', 'bench', BENCH_PASSWORD);
  await admin.ensureResource('small.bench.test', { reference: 'small.bench.test', hasDomain: true, hasService: true });
  await admin.grant('small.bench.test', 'bench', 'small.bench.test', allKeys('write'));

  await admin.ensureAccount('big.bench.test', brand);
  await admin.ensureUser('big.bench.test', 'bench', BENCH_PASSWORD);
  const started = performance.now();
  const references = Array.from({ length: RESOURCES }, (_, i) => ({
    reference: `r${String(i + 1).padStart(5, '0')}.big.bench.test`,
    hasDomain: true,
    hasService: i % 2 === 0,
    hasMail: i % 3 === 0,
  }));
  await admin.ensureResourcesBulk('big.bench.test', 'bench', references, allKeys('write'));
  const insertMs = performance.now() - started;

  const { app } = await buildApp({
    config,
    db: runtime.db,
    jobs: runtime.jobs,
    events: runtime.events,
    secretKey: Buffer.alloc(32, 1),
  });
  const login = async (domainName: string) => {
    const response = await app.inject({
      method: 'POST',
      url: `${config.basePath}user/login/`,
      headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ domainName, username: 'bench', password: BENCH_PASSWORD }).toString(),
    });
    const cookie = response.cookies.find((c) => c.name.endsWith('p247_sid'));
    if (!cookie) throw new Error(`login to ${domainName} failed: ${response.body}`);
    return `${cookie.name}=${cookie.value}`;
  };
  const smallCookie = await login('small.bench.test');
  const bigCookie = await login('big.bench.test');

  // Check the answers are real before measuring them.
  const list = await app.inject({
    method: 'GET',
    url: `${config.basePath}permission/list/`,
    headers: { 'x-dd-request': '1', cookie: bigCookie },
  });
  const count = (list.json() as { data: { permissions: unknown[] } }).data.permissions.length;
  if (count !== RESOURCES) throw new Error(`permission/list answered ${count} resources, not ${RESOURCES}`);

  const appAddress = await app.listen({ host: '127.0.0.1', port: 0 });
  const policy = { idleSeconds: 1800, absoluteSeconds: 43_200 };
  const cachedDb = runtime.kind === 'sqlite' ? openWithStatementCache(path.join(dataDir, 'panel.sqlite')) : undefined;
  const ladder = process.env.BENCH_DIAGNOSE
    ? await startLadder(
        new SessionService(runtime.db, policy, runtime.events, () => nowSeconds()),
        cachedDb && new SessionService(cachedDb, policy, runtime.events, () => nowSeconds()),
      )
    : { servers: [], ports: {} };

  const ready: BenchReady = {
    appPort: Number(new URL(appAddress).port),
    kind: runtime.kind,
    smallCookie,
    bigCookie,
    resources: count,
    insertMs,
    listBytes: list.rawPayload.length,
    ladder: ladder.ports,
  };
  process.send?.({ type: 'ready', ready });

  const stop = async () => {
    for (const server of ladder.servers) await server.close();
    await app.close();
    await cachedDb?.destroy();
    await runtime.close();
    process.exit(0);
  };
  answerParent(stop);
}

/** The floor: a new Fastify instance with one small JSON route, as plain as Fastify gets. */
async function bareMain() {
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ hello: 'world', n: 1 }));
  const address = await bare.listen({ host: '127.0.0.1', port: 0 });
  const ready: BareReady = { barePort: Number(new URL(address).port) };
  process.send?.({ type: 'ready', ready });
  const stop = async () => {
    await bare.close();
    process.exit(0);
  };
  answerParent(stop);
}

(process.env.BENCH_ROLE === 'bare' ? bareMain() : main()).catch((error) => {
  process.send?.({ type: 'error', message: (error as Error).stack ?? String(error) });
  process.exit(1);
});
