/**
 * npm run bench:fleet — Panel247 across several servers, against one server, in one run (root:
 * each server is a network namespace with its own nginx, PHP-FPM and node agent, on PostgreSQL):
 *
 * 1. Change to serving: BENCH_FLEET_SERVICES (1,000) hosting services, first on one web server,
 *    then (a control plane of its own) across three; every server made to serve all it holds
 *    (its `web sync`); then BENCH_FLEET_CHANGES (30) new sites made through the API, spread over
 *    the servers, each timed from the call to the first answer of its server's nginx for the new
 *    host. p50 and p95 of both, and the fleet's as a ratio of the single server's.
 * 2. A move's cut-over per GB: a service whose home holds BENCH_FLEET_MOVE_MB (256) moved between
 *    two servers (`panel node move`): the live copy and the cut-over (changes held) per GB, beside
 *    `cp -a` of the same home on one machine.
 *
 * A benchmark never fails: it prints and exits 0; only a broken setup exits 1.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AdminService } from '../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';
import { buildAccount } from '../test/support/factories.ts';
import { runPanel } from '../test/support/panel-cli.ts';
import { addServer, dropServerRoles } from '../test/support/provider-servers.ts';
import { startWebServerNamespace, type WebServerNamespace } from '../test/support/server-namespace.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../test/support/test-app.ts';
import { createTestDatabase } from '../test/support/test-database.ts';

const execFileAsync = promisify(execFile);
const SERVICES = Number(process.env.BENCH_FLEET_SERVICES ?? 1000);
const CHANGES = Number(process.env.BENCH_FLEET_CHANGES ?? 30);
const MOVE_MB = Number(process.env.BENCH_FLEET_MOVE_MB ?? 256);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Fleet {
  t: TestApp;
  servers: Map<string, WebServerNamespace>;
  cliEnv: Record<string, string>;
  close(): Promise<void>;
}

/** A control plane of its own with `names` web servers (namespaces from `slot`), each with its agent. */
async function startFleet(names: string[], slot: number): Promise<Fleet> {
  const database = await createTestDatabase('postgres');
  const t = await buildTestApp('postgres', {
    database,
    config: {
      'web.applyWaitSeconds': 30,
      'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-fleet-bench-')),
      databaseUrl: database.url,
    },
  });
  const cliEnv = {
    PANEL_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'p247-fleet-bench-cli-')),
    PANEL_LOG_LEVEL: 'silent',
    PANEL_DATABASE_URL: database.url as string,
    PANEL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
  };
  const servers = new Map<string, WebServerNamespace>();
  for (const [index, name] of names.entries()) {
    const server = await startWebServerNamespace(name, slot + index);
    servers.set(name, server);
    const added = await addServer(cliEnv, database.url as string, name, {
      roles: 'web',
      channelUrl: server.channelUrl,
      ipv4: server.ns.address,
      // room for the services, the changes' own and the move's
      capacity: SERVICES + CHANGES + 10,
    });
    await server.startAgent(
      added.roleUrl,
      { 'web.applyWaitSeconds': 30 },
      { PANEL_NODE: name, PANEL_NODE_KEY: added.key, PANEL_LOG_LEVEL: 'error' },
    );
  }
  return {
    t,
    servers,
    cliEnv,
    async close() {
      await t.close();
      for (const server of servers.values()) await server.destroy();
      await dropServerRoles(servers.keys());
    },
  };
}

/** SERVICES services placed by the policy, each server then serving all it holds. */
async function fillFleet(fleet: Fleet, prefix: string): Promise<void> {
  const db = fleet.t.database.db;
  await buildAccount(db, { domainName: `${prefix}.test`, resources: { [`${prefix}.test`]: { hasDomain: true } } });
  const admin = new AdminService(db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
  const started = Date.now();
  for (let i = 0; i < SERVICES; i++)
    await admin.ensureResource(`${prefix}.test`, {
      reference: `${prefix}-${String(i).padStart(4, '0')}.test`,
      hasService: true,
    });
  const placed = Date.now() - started;
  const synced = Date.now();
  await Promise.all([...fleet.servers.values()].map((server) => server.panel(['web', 'sync'])));
  console.log(
    `  ${SERVICES} services made and placed in ${placed} ms; every server serving what it holds in ${Date.now() - synced} ms`,
  );
}

/** CHANGES new sites through the API, spread over the services: ms from the call to its server's answer. */
async function changesToServing(fleet: Fleet, prefix: string): Promise<number[]> {
  const db = fleet.t.database.db;
  const account = await buildAccount(db, {
    domainName: `${prefix}-owner.test`,
    resources: Object.fromEntries(
      Array.from({ length: CHANGES }, (_, i) => [`${prefix}-cambio-${i}.test`, { hasService: true }]),
    ),
  });
  const cookie = await fleet.t.login(account.domainName, account.username, account.password);
  const times: number[] = [];
  for (const [reference, id] of Object.entries(account.resources)) {
    const placed = await db
      .selectFrom('service_placements')
      .select('node')
      .where('service_id', '=', id)
      .where('role', '=', 'web')
      .executeTakeFirstOrThrow();
    const server = fleet.servers.get(placed.node) as WebServerNamespace;
    const started = Date.now();
    await fleet.t.call('POST', `service/${id}/subdomain/create/`, { subDomain: 'nuevo', folder: 'nuevo' }, { cookie });
    while ((await server.site(`nuevo.${reference}`)).status === 0) await new Promise((r) => setTimeout(r, 5));
    times.push(Date.now() - started);
  }
  return times;
}

async function main() {
  if (process.getuid?.() !== 0) throw new Error('bench:fleet runs as root (network namespaces)');
  console.log(`bench:fleet — ${SERVICES} services; ${CHANGES} changes; a ${MOVE_MB} MB move`);

  console.log('one web server:');
  const single = await startFleet(['p247bs1'], 41);
  let singleTimes: number[];
  try {
    await fillFleet(single, 'solo');
    singleTimes = await changesToServing(single, 'solo');
  } finally {
    await single.close();
  }

  console.log('three web servers:');
  const fleet = await startFleet(['p247bf1', 'p247bf2', 'p247bf3'], 44);
  try {
    await fillFleet(fleet, 'flota');
    const fleetTimes = await changesToServing(fleet, 'flota');
    const line = (label: string, times: number[]) =>
      `  ${label}: change to serving p50 ${percentile(times, 50)} ms, p95 ${percentile(times, 95)} ms`;
    console.log(line('one server   ', singleTimes));
    console.log(line('three servers', fleetTimes));
    console.log(
      `  ratio three/one: p50 ${(percentile(fleetTimes, 50) / percentile(singleTimes, 50)).toFixed(2)}, p95 ${(percentile(fleetTimes, 95) / percentile(singleTimes, 95)).toFixed(2)}`,
    );

    // a move of a service with MOVE_MB in its home
    const db = fleet.t.database.db;
    const moving = await buildAccount(db, {
      domainName: 'mudanza.test',
      resources: { 'mudanza.test': { hasService: true, placement: { web: 'p247bf1' } } },
    });
    const cookie = await fleet.t.login(moving.domainName, moving.username, moving.password);
    await fleet.t.call('GET', `service/${moving.resources['mudanza.test']}/dns/list/`, {}, { cookie });
    await fleet.t.call(
      'POST',
      `service/${moving.resources['mudanza.test']}/subdomain/create/`,
      { subDomain: 'web', folder: 'web' },
      { cookie },
    );
    const home = path.join((fleet.servers.get('p247bf1') as WebServerNamespace).homes, 'mudanza.test');
    const data = path.join(home, 'web', 'datos');
    mkdirSync(data, { recursive: true });
    const chunk = Buffer.alloc(1024 * 1024, 7);
    for (let i = 0; i < MOVE_MB; i++)
      writeFileSync(path.join(data, `parte-${Math.floor(i / 16)}.bin`), chunk, { flag: 'a' });
    await execFileAsync('chown', ['-R', '--reference', home, home]);
    // as a home's files are when a move begins: written well before it (a file changed within the
    // final copy's margin of the live copy's start, 2 s, is sent again by the final copy)
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const copyDir = mkdtempSync(path.join(tmpdir(), 'p247-fleet-cp-'));
    const cpStarted = Date.now();
    await execFileAsync('cp', ['-a', home, copyDir]);
    const cpMs = Date.now() - cpStarted;
    rmSync(copyDir, { recursive: true, force: true });
    const moved = await runPanel(fleet.cliEnv, [
      'node',
      'move',
      'mudanza.test',
      '--to',
      'p247bf2',
      '--keep-old',
      '0',
      '--json',
    ]);
    if (moved.code !== 0) throw new Error(`the move failed: ${moved.stderr}`);
    const report = JSON.parse(moved.stdout) as { copyMs: number; cutoverMs: number };
    const perGb = (ms: number) => Math.round((ms * 1024) / MOVE_MB);
    console.log(
      `  move of ${MOVE_MB} MB: live copy ${report.copyMs} ms (${perGb(report.copyMs)} ms/GB), cut-over ${report.cutoverMs} ms (${perGb(report.cutoverMs)} ms/GB); cp -a on one machine ${cpMs} ms (${perGb(cpMs)} ms/GB); cut-over / cp -a ${(report.cutoverMs / cpMs).toFixed(2)}`,
    );
  } finally {
    await fleet.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
