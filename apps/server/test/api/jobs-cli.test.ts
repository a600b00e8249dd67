import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobEngine } from '../../src/jobs/create-job-engine.ts';
import type { JobEngine, JobView } from '../../src/jobs/job-engine.ts';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { serviceChangeLog } from '../../src/jobs/service-change-log.repository.ts';
import { buildAccount } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

const broken = defineJob({
  name: 'test.cli-broken',
  payload: z.object({ site: z.string() }),
  policy: 'ordered',
  key: (p) => p.site,
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  expireSeconds: 60,
});

/**
 * `panel jobs`: the provider sees what failed and why, runs it again, and doctor says the work log
 * holds a failed job; the same on both engines (the CLI reads the log a server's engine runs).
 */
describe.each(DATABASE_KINDS)('panel jobs on %s', (kind) => {
  let dataDir: string;
  let database: TestDatabase;
  let server: JobEngine;
  let env: Record<string, string>;
  let fixed = false;
  let failedId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-jobs-cli-'));
    database = await createTestDatabase(kind, { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    env = {
      PANEL_DATA_DIR: dataDir,
      PANEL_LOG_LEVEL: 'silent',
      ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
    };
    server = createJobEngine(database);
    await server.start({ workers: true });
    await server.work(broken, async (payload) => {
      if (!fixed) throw new Error(`the template of ${payload.site} does not parse`);
    });
    failedId = (await server.send(broken, { site: 'a.example' })) as string;
    await server.send(broken, { site: 'a.example' });
    for (let i = 0; i < 200 && (await server.find(broken, failedId))?.state !== 'failed'; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runPanel(env, args);

  it('lists the failed job with its reason, and the one it holds, exit 1', async () => {
    const open = await cli('jobs', 'list', '--json');
    expect(open.code).toBe(1);
    const jobs = (JSON.parse(open.stdout) as { jobs: JobView[] }).jobs;
    expect(jobs.map((job) => [job.kind, job.key, job.state])).toEqual([
      [broken.name, 'a.example', 'created'],
      [broken.name, 'a.example', 'failed'],
    ]);
    expect(jobs[1]?.error).toBe('the template of a.example does not parse');
    const text = await cli('jobs', 'list', '--state', 'failed');
    expect(text.stdout).toContain(failedId);
    expect(text.stdout).toContain('the template of a.example does not parse');
  });

  it('doctor fails its work log check and says how to fix it', async () => {
    const doctor = await cli('doctor', '--json');
    const check = (JSON.parse(doctor.stdout) as { checks: { name: string; ok: boolean; fix?: string }[] }).checks.find(
      (one) => one.name === 'work log',
    );
    expect(check).toMatchObject({ ok: false });
    expect(check?.fix).toContain('panel jobs retry');
  });

  it('retries the failed job: it runs, and the one it held follows', async () => {
    fixed = true;
    const retried = await cli('jobs', 'retry', failedId);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(`Job ${failedId} (${broken.name}) will run again.`);
    const open = async () => (JSON.parse((await cli('jobs', 'list', '--json')).stdout) as { jobs: JobView[] }).jobs;
    for (let i = 0; i < 200 && (await open()).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await cli('jobs', 'list', '--json');
    expect((JSON.parse(after.stdout) as { jobs: JobView[] }).jobs).toEqual([]);
    const summary = await cli('jobs', 'summary');
    expect(summary.stdout).toMatch(new RegExp(`${broken.name.replace('.', '\\.')}\\s+0\\s+0\\s+0\\s+2\\s+0`));
  });

  it('lists the objects whose changes wait for their server, and doctor says which fail', async () => {
    expect(await cli('jobs', 'changes')).toMatchObject({ code: 0, stdout: 'Every change is on its server.\n' });
    const account = await buildAccount(database.db, { domainName: 'waiting-web.test' });
    const serviceId = account.resources['waiting-web.test'] as number;
    const entry = await serviceChangeLog.append(database.db, 'web', serviceId, { prepare: [] }, null, 1_790_000_000);
    await serviceChangeLog.noteAttempt(database.db, [entry], {
      failedAttempt: { messageKey: 'web.error.refused', detail: 'nginx -t: unknown directive "x"' },
    });
    const listed = await cli('jobs', 'changes', '--json');
    expect(listed.code).toBe(1);
    expect(JSON.parse(listed.stdout).changes).toEqual([
      {
        area: 'web',
        serviceId,
        domain: 'waiting-web.test',
        pending: 1,
        since: 1_790_000_000,
        lastError: 'nginx -t: unknown directive "x"',
      },
    ]);
    expect((await cli('jobs', 'changes')).stdout).toContain('nginx -t: unknown directive');
    const doctor = await cli('doctor', '--json');
    const check = (
      JSON.parse(doctor.stdout) as { checks: { name: string; ok: boolean; detail: string; fix?: string }[] }
    ).checks.find((one) => one.name === 'changes on their servers');
    expect(check).toMatchObject({ ok: false });
    expect(check?.detail).toContain('web waiting-web.test (nginx -t: unknown directive');
    expect(check?.fix).toContain('panel jobs changes');
    await serviceChangeLog.finish(database.db, [entry], 'applied');
  });

  it('refuses a malformed id and an unknown state before opening anything', async () => {
    expect((await cli('jobs', 'retry', 'nope')).stderr).toContain("'nope' is not a job id");
    expect((await cli('jobs', 'list', '--state', 'odd')).stderr).toContain('--state must be one of');
  });
});
