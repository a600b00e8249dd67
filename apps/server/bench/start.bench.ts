/**
 * How fast the panel and the node agent start, and how much memory they hold idle: the
 * production bundles (apps/server/dist, `npm run build:server`) against the same entry points
 * under the tsx loader, in one run on one machine. The agent's aims: under 2 s to start and at
 * most 80 MB RSS idle.
 *
 * Each process is started as its unit would: the panel on a SQLite folder of its own (its demo
 * seed written by a first, uncounted start), the agent on a throw-away PostgreSQL database
 * (migrated by a first, uncounted start). "Start" is from spawn to the line the process prints
 * once it works (the panel's address, the agent's "running"); "idle RSS" is read from
 * /proc/<pid>/status after it sat idle for IDLE_MS.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../../scripts/daemons/daemon-harness.ts';
import { createPgDatabase } from './bench-support.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);
const AGENT_RSS_AIM_MB = 80;
const AGENT_START_AIM_MS = 2000;

interface Variant {
  name: string;
  args: string[];
  ready: RegExp;
  env: Record<string, string>;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

function started(child: ChildProcess, ready: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) resolve();
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before it was ready:\n${seen.slice(-2000)}`)));
  });
}

async function once(variant: Variant): Promise<{ startMs: number; rss: number }> {
  const begin = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: ROOT,
    env: { ...process.env, ...variant.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await started(child, variant.ready);
    const startMs = performance.now() - begin;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { startMs, rss: rssMb(child.pid as number) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main() {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: ROOT, stdio: 'inherit' });
  const database = await createPgDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-start-bench-'));
  const panelEnv = { PANEL_DATA_DIR: dataDir, PORT: '0', PANEL_LOG_LEVEL: 'warn', NODE_ENV: 'development' };
  // As a server's agent runs beside separate instances: its node channel listening.
  const agentEnv = {
    PANEL_DATABASE_URL: database.url,
    PANEL_DATA_DIR: dataDir,
    PANEL_LOG_LEVEL: 'warn',
    PANEL_AGENT_URL: `http://127.0.0.1:${await freePort()}`,
  };
  const variants: Variant[] = [
    { name: 'agent, bundle', args: ['apps/server/dist/agent.js'], ready: /node agent: running/, env: agentEnv },
    {
      name: 'agent, tsx',
      args: ['--import', 'tsx', 'apps/server/src/agent-main.ts'],
      ready: /node agent: running/,
      env: agentEnv,
    },
    { name: 'panel, bundle', args: ['apps/server/dist/main.js'], ready: /is running at/, env: panelEnv },
    {
      name: 'panel, tsx',
      args: ['--import', 'tsx', 'apps/server/src/main.ts'],
      ready: /is running at/,
      env: panelEnv,
    },
  ];
  const results = new Map<string, { startMs: number; rss: number }>();
  try {
    // first starts: the agent migrates the new database, the panel seeds its folder
    await once({ ...variants[0], env: { ...agentEnv } } as Variant);
    await once(variants[2] as Variant);
    for (const variant of variants) {
      const runs = [];
      for (let run = 0; run < RUNS; run++) runs.push(await once(variant));
      results.set(variant.name, {
        startMs: median(runs.map((r) => r.startMs)),
        rss: median(runs.map((r) => r.rss)),
      });
    }
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nmedian of ${RUNS} starts each, idle RSS after ${IDLE_MS / 1000} s`);
  console.log('process          start (ms)   idle RSS (MB)');
  for (const [name, result] of results)
    console.log(`${name.padEnd(16)} ${result.startMs.toFixed(0).padStart(10)}   ${result.rss.toFixed(1).padStart(13)}`);
  const pair = (who: string) => {
    const bundle = results.get(`${who}, bundle`) as { startMs: number; rss: number };
    const tsx = results.get(`${who}, tsx`) as { startMs: number; rss: number };
    console.log(
      `${who}: bundle/tsx start ${(bundle.startMs / tsx.startMs).toFixed(2)}×, idle RSS ${(bundle.rss / tsx.rss).toFixed(2)}×`,
    );
    return bundle;
  };
  const agent = pair('agent');
  pair('panel');
  console.log(
    `agent aims: start < ${AGENT_START_AIM_MS} ms: ${agent.startMs < AGENT_START_AIM_MS ? 'yes' : 'NO'}; idle RSS <= ${AGENT_RSS_AIM_MB} MB: ${agent.rss <= AGENT_RSS_AIM_MB ? 'yes' : 'NO'}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
