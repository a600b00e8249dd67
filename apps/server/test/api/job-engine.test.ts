import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobEngine } from '../../src/jobs/create-job-engine.ts';
import type { JobEngine, JobState } from '../../src/jobs/job-engine.ts';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

const step = z.object({ object: z.string(), n: z.number().int(), fail: z.number().int().default(0) });

/** Waits until `check` holds (the engines run jobs on their own time), for at most `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The work log's rules, the same on both engines (pg-boss on PostgreSQL, the embedded engine on
 * SQLite): one object's jobs run in the order sent, a failure holds only that object's later jobs
 * and is retried with backoff, a final failure holds them until retried, a `once` key waits once.
 */
describe.each(DATABASE_KINDS)('the job engine on %s', (kind) => {
  let database: TestDatabase;
  let engine: JobEngine;
  const ran: string[] = [];
  const failures = new Map<string, number>();

  const ordered = defineJob({
    name: `test.ordered-${kind}`,
    payload: step,
    policy: 'ordered',
    key: (p) => p.object,
    retry: { limit: 2, delaySeconds: 1, backoff: true },
    expireSeconds: 60,
  });
  const final = defineJob({
    name: `test.final-${kind}`,
    payload: step,
    policy: 'ordered',
    key: (p) => p.object,
    retry: { limit: 0, delaySeconds: 1, backoff: false },
    expireSeconds: 60,
  });
  const once = defineJob({
    name: `test.once-${kind}`,
    payload: z.object({ object: z.string() }),
    policy: 'once',
    key: (p) => p.object,
    retry: { limit: 0, delaySeconds: 1, backoff: false },
    expireSeconds: 60,
  });

  /** Runs a step; a step sent with `fail: k` fails its first k runs. */
  const handler = async (p: z.infer<typeof step>) => {
    const id = `${p.object}${p.n}`;
    const failed = failures.get(id) ?? 0;
    if (failed < p.fail) {
      failures.set(id, failed + 1);
      throw new Error(`step ${id} broke`);
    }
    ran.push(id);
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    engine = createJobEngine(database, { superviseSeconds: 1 });
    await engine.start({ workers: true });
    await engine.work(ordered, handler, { concurrency: 4 });
    await engine.work(final, handler, { concurrency: 4 });
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    await database?.destroy();
  });

  it('runs a job and reports it done', async () => {
    const id = await engine.send(ordered, { object: 'solo', n: 1, fail: 0 });
    expect(id).toBeTruthy();
    await until(async () => (await engine.find(ordered, id as string))?.state === 'completed');
    const job = await engine.find(ordered, id as string);
    expect(job).toMatchObject({ kind: ordered.name, key: 'solo', state: 'completed', retries: 0, error: null });
    expect(job?.payload).toEqual({ object: 'solo', n: 1, fail: 0 });
  });

  it("a failing step holds only its object's later steps, retried in order", async () => {
    ran.length = 0;
    for (const n of [1, 2, 3]) {
      await engine.send(ordered, { object: 'a', n, fail: n === 2 ? 1 : 0 });
      await engine.send(ordered, { object: 'b', n, fail: 0 });
    }
    await until(() => ran.length === 6);
    const a = ran.filter((id) => id.startsWith('a'));
    expect(a).toEqual(['a1', 'a2', 'a3']);
    // b did not wait for a's retry (a second at least).
    expect(ran.indexOf('b3')).toBeLessThan(ran.indexOf('a2'));
    const [a2] = (await engine.findByKey(ordered, 'a')).filter((job) => (job.payload as { n: number }).n === 2);
    expect(a2).toMatchObject({ state: 'completed', retries: 1 });
  });

  it('a step that failed for good keeps its reason and holds its object until retried', async () => {
    ran.length = 0;
    const broken = await engine.send(final, { object: 'c', n: 1, fail: 1 });
    const held = await engine.send(final, { object: 'c', n: 2, fail: 0 });
    await engine.send(final, { object: 'd', n: 1, fail: 0 });
    await until(async () => (await engine.find(final, broken as string))?.state === 'failed');
    await until(() => ran.includes('d1'));
    expect((await engine.find(final, broken as string))?.error).toBe('step c1 broke');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await engine.find(final, held as string))?.state).toBe('created');
    const open: readonly JobState[] = ['failed'];
    expect((await engine.list({ states: open, kind: final.name, limit: 10 })).map((job) => job.id)).toEqual([broken]);

    expect(await engine.retry(final, broken as string)).toBe(true);
    await until(() => ran.includes('c2'));
    expect(ran.filter((id) => id.startsWith('c'))).toEqual(['c1', 'c2']);
    // c2's handler has run; its completion is recorded once the handler's answer is back
    const completed = async () => (await engine.counts()).find((entry) => entry.kind === final.name)?.states.completed;
    await until(async () => (await completed()) === 3);
    expect(await completed()).toBe(3);
  });

  it('a once key has one job waiting: sending it again adds nothing', async () => {
    const first = await engine.send(once, { object: 'site-1' });
    const second = await engine.send(once, { object: 'site-1' });
    const other = await engine.send(once, { object: 'site-2' });
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(other).toBeTruthy();
  });

  it('refuses a payload its kind does not allow, before anything is recorded', async () => {
    await expect(engine.send(ordered, { object: 'x', n: 1.5, fail: 0 })).rejects.toThrow();
    expect(await engine.findByKey(ordered, 'x')).toEqual([]);
  });
});
