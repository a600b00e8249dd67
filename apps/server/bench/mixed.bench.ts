import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPgDatabase, median, ms, pad, startServer, stopServer } from './bench-support.ts';
import type { MixedReady, MixedSession } from './mixed-server.ts';

/**
 * `npm run bench:mixed [-- --connections 50] [--duration 10] [--by-call]`: the same mixed load —
 * every connection a customer of its own calling, in turn, user/info, permission/list,
 * domain/{id}, dns/list and a DNS record save — on the panel with SQLite and with PostgreSQL, one
 * instance each, in this one run. Prints each database's latencies and PostgreSQL's p99 as a
 * ratio of SQLite's (target ≤ 2). Never fails on a missed target.
 */

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    /** Only one database (no ratio then), e.g. while trying a change on PostgreSQL. */
    db: { type: 'string', default: 'sqlite,postgres' },
    connections: { type: 'string', default: '50' },
    /** PostgreSQL's pool size in the server (default: the panel's default). */
    pool: { type: 'string', default: '' },
    /** Also measures each call alone, to see which one costs what. */
    'by-call': { type: 'boolean', default: false },
  },
});
const DURATION = Math.max(1, Math.min(120, Number(values.duration) || 8));
const CONNECTIONS = Math.max(1, Math.min(500, Number(values.connections) || 50));
const WARMUP = 2;
const ROUNDS = 5;
const TARGET_RATIO = 2;

interface Call {
  name: string;
  method: 'GET' | 'POST';
  path(session: MixedSession): string;
  body?(session: MixedSession, n: number): string;
}

const CALLS: Call[] = [
  { name: 'user/info', method: 'POST', path: () => 'user/info/' },
  { name: 'permission/list', method: 'GET', path: () => 'permission/list/' },
  { name: 'domain/{id}', method: 'GET', path: (s) => `domain/${s.serviceId}/` },
  { name: 'dns/list', method: 'GET', path: (s) => `service/${s.serviceId}/dns/list/` },
  {
    name: 'dns save',
    method: 'POST',
    path: (s) => `service/${s.serviceId}/dns/${s.recordId}/save/`,
    body: (_s, n) => `value=192.0.2.${(n % 250) + 1}&ttl=0`,
  },
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  problems: number;
}

/** One autocannon run: each connection takes the next session and cycles through `calls`. */
async function load(ready: MixedReady, calls: Call[], duration: number): Promise<Figures> {
  let nextSession = 0;
  let n = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}/p247/`,
    connections: CONNECTIONS,
    duration,
    timeout: 20,
    requests: calls.map((call) => ({
      method: call.method,
      setupRequest: (request: Record<string, unknown>, context: { session?: MixedSession }) => {
        if (!context.session) {
          context.session = ready.sessions[nextSession % ready.sessions.length] as MixedSession;
          nextSession += 1;
        }
        const session = context.session;
        n += 1;
        return {
          ...request,
          path: `/p247/${call.path(session)}`,
          headers: {
            cookie: session.cookie,
            'x-dd-request': '1',
            ...(call.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: call.body?.(session, n),
        };
      },
    })),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    problems: result.errors + result.timeouts + result.non2xx,
  };
}

function line(name: string, f: Figures): string {
  return (
    `  ${pad(name, 28)} ${pad(f.rps.toFixed(0), 6)} req/s  p50 ${pad(ms(f.p50), 9)} p99 ${pad(ms(f.p99), 9)}` +
    (f.problems ? `  (${f.problems} errors/non-2xx!)` : '')
  );
}

interface Started {
  ready: MixedReady;
  stop(): Promise<void>;
}

/** The panel on one database, its customers set up and logged in. */
async function startOn(kind: 'sqlite' | 'postgres'): Promise<Started> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-mixed-'));
  const database = kind === 'postgres' ? await createPgDatabase() : undefined;
  const cleanUp = async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const server = await startServer<MixedReady>('mixed-server.ts', {
      BENCH_DATA_DIR: dataDir,
      BENCH_DATABASE_URL: database?.url ?? '',
      BENCH_ACCOUNTS: String(CONNECTIONS),
      BENCH_POOL_SIZE: values.pool ?? '',
    });
    return {
      ready: server.ready,
      async stop() {
        await stopServer(server.child);
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

async function main() {
  console.log(
    `Panel247 mixed-load bench — ${cpus().length} CPUs, Node ${process.version}, ` +
      `${CONNECTIONS} connections, ${DURATION}s per round after ${WARMUP}s warm-up`,
  );
  const kinds = ['sqlite', 'postgres'].filter((kind) => (values.db ?? '').split(',').includes(kind)) as (
    | 'sqlite'
    | 'postgres'
  )[];
  const servers: Started[] = [];
  try {
    for (const kind of kinds) servers.push(await startOn(kind));
    for (const server of servers) await load(server.ready, CALLS, WARMUP);
    // The databases take turns, round after round: on a shared 2-core machine the neighbours'
    // load moves from one minute to the next, and alternating spreads it over both.
    const rounds: Figures[][] = [];
    for (let round = 0; round < (servers.length > 1 ? ROUNDS : 1); round++) {
      const figures: Figures[] = [];
      for (const server of servers) {
        const result = await load(server.ready, CALLS, DURATION);
        console.log(line(`round ${round + 1}: ${server.ready.kind}`, result));
        figures.push(result);
      }
      rounds.push(figures);
    }
    if (values['by-call']) {
      for (const server of servers) {
        console.log(`${server.ready.kind}, each call alone:`);
        for (const call of CALLS)
          console.log(line(call.name, await load(server.ready, [call], Math.ceil(DURATION / 2))));
      }
    }
    if (servers.length < 2) return;
    const ratios = rounds.map(([sqlite, postgres]) => (postgres as Figures).p99 / (sqlite as Figures).p99);
    const p50s = rounds.map(([sqlite, postgres]) => (postgres as Figures).p50 / (sqlite as Figures).p50);
    const ratio = median(ratios);
    console.log(
      `\nTarget: PostgreSQL p99 / SQLite p99 = ${ratio.toFixed(2)}, median of ${ratios.length} alternating rounds ` +
        `(${ratios.map((r) => r.toFixed(2)).join(', ')}) (target <= ${TARGET_RATIO}): ` +
        `${ratio <= TARGET_RATIO ? 'met' : 'NOT MET'}; p50 ratio ${median(p50s).toFixed(2)}`,
    );
    if (rounds.flat().some((f) => f.problems > 0))
      console.log('Warning: some requests failed; the figures are suspect.');
  } finally {
    for (const server of servers) await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  // Only a broken setup fails the command; a missed target never does.
  process.exit(1);
});
