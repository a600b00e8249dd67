import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEngine } from '../../src/jobs/job-engine.ts';
import { PgBossEngine } from '../../src/jobs/pg-boss-engine.ts';
import { TAKEOVER_HEARTBEAT_SECONDS, TAKEOVER_KIND } from '../support/job-instance.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const INSTANCE = path.join(import.meta.dirname, '../support/job-instance.ts');

/** Starts an instance in a process of its own; resolves with it once it works the kind. */
function startInstance(url: string, lines: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', INSTANCE, url], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        if (line === 'ready') resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`the instance stopped (${code})`)));
  });
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Two instances on one PostgreSQL database: the one running a job is killed (SIGKILL, no goodbye);
 * its job is taken up by the other once its heartbeat is missed, and runs there exactly once.
 */
describe('a job that dies with its instance', () => {
  let database: TestDatabase;
  let survivor: JobEngine;
  let doomed: ChildProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    doomed?.kill('SIGKILL');
    await survivor?.stop();
    await database?.destroy();
  });

  it('is taken up by the other instance, once', async () => {
    const url = database.url as string;
    const lines: string[] = [];
    doomed = await startInstance(url, lines);
    survivor = new PgBossEngine({
      connectionString: url,
      heartbeatSeconds: TAKEOVER_HEARTBEAT_SECONDS,
      superviseSeconds: 1,
    });
    await survivor.start({ workers: true });
    const id = (await survivor.send(TAKEOVER_KIND, { object: 'site-1' })) as string;
    await until(() => lines.includes(`started ${id}`), 20_000);
    doomed.kill('SIGKILL');

    // Only now does the survivor work the kind, so the first run was surely the other instance's.
    const runs: string[] = [];
    await survivor.work(TAKEOVER_KIND, async (_payload, run) => {
      runs.push(run.id);
    });
    await until(async () => (await survivor.find(TAKEOVER_KIND, id))?.state === 'completed', 90_000);
    expect(runs).toEqual([id]);
    const job = await survivor.find(TAKEOVER_KIND, id);
    expect(job?.retries).toBe(1);
  }, 120_000);
});
