import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Db, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { EmbeddedEngine } from '../../src/jobs/embedded-engine.ts';
import { defineJob } from '../../src/jobs/job-kind.ts';

const round = defineJob({
  name: 'test.round',
  payload: z.object({ what: z.string() }),
  policy: 'once',
  key: () => 'round',
  retry: { limit: 1, delaySeconds: 1, backoff: false },
  expireSeconds: 60,
});

async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What only the embedded engine has to show (the shared rules are in api/job-engine.test.ts). */
describe('the embedded job engine', () => {
  let db: Db;
  let engine: EmbeddedEngine | undefined;
  afterEach(async () => {
    await engine?.stop();
    await db?.destroy();
  });

  async function open(now: () => number) {
    db = openDatabase({ sqliteFile: ':memory:' }).db;
    await migrateToLatest(db);
    engine = new EmbeddedEngine(db, { now });
    return engine;
  }

  it("sends a schedule's occurrence once, and nothing for those before the schedule existed", async () => {
    let now = Date.parse('2026-11-29T10:00:30Z');
    const jobs = await open(() => now);
    const ran: string[] = [];
    await jobs.start({ workers: true });
    await jobs.work(round, async (p) => {
      ran.push(p.what);
    });
    await jobs.schedule(round, '* * * * *', { what: 'purge' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(ran).toEqual([]);

    now = Date.parse('2026-11-29T10:01:05Z');
    await until(() => ran.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(ran).toEqual(['purge']);

    // Ten minutes away: one round for the gap, not ten.
    now = Date.parse('2026-11-29T10:11:10Z');
    await until(() => ran.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(ran).toEqual(['purge', 'purge']);
  });

  it('runs again, at the next start, a job that was running when the process stopped', async () => {
    const jobs = await open(Date.now);
    await db
      .insertInto('embedded_jobs')
      .values({
        id: 'lost-1',
        kind: round.name,
        key: 'round',
        policy: 'once',
        payload: JSON.stringify({ what: 'lost' }),
        state: 'active',
        error: null,
        run_after: Date.now(),
        created_at: Date.now(),
        started_at: Date.now(),
        finished_at: null,
      })
      .execute();
    const ran: string[] = [];
    await jobs.work(round, async (p) => {
      ran.push(p.what);
    });
    await jobs.start({ workers: true });
    await until(async () => (await jobs.find(round, 'lost-1'))?.state === 'completed');
    expect(ran).toEqual(['lost']);
    expect((await jobs.find(round, 'lost-1'))?.retries).toBe(1);
  });

  it('a run longer than its kind allows fails that run and is retried', async () => {
    const jobs = await open(Date.now);
    const slow = defineJob({ ...round, name: 'test.slow', expireSeconds: 1 });
    let runs = 0;
    await jobs.start({ workers: true });
    await jobs.work(slow, async (_p, run) => {
      runs += 1;
      if (runs === 1) await new Promise((resolve) => run.signal.addEventListener('abort', resolve));
    });
    const id = (await jobs.send(slow, { what: 'x' })) as string;
    await until(async () => (await jobs.find(slow, id))?.state === 'completed');
    expect(runs).toBe(2);
    expect((await jobs.find(slow, id))?.error).toBe('the job ran longer than 1 s');
  });
});
