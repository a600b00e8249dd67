import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ActivityListData } from '@panel247/contract/activity';
import type { CronListData, CronPreviewData, CronRunsData, CronTask } from '@panel247/contract/cron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/i18n/messages.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { createPlansService } from '../../src/modules/plans/create-plans-service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const SCRIPT = { kind: 'php', target: 'cron/limpieza.php', schedule: '*/15 * * * *', email: '' };

describe.each(DATABASE_KINDS)('scheduled tasks on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let readerCookie: string;
  let noneCookie: string;
  let id: number;
  const domain = 'tareas.test';

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: { 'hosting.root': mkdtempSync(path.join(tmpdir(), 'p247-cron-')), 'cron.timezone': 'Europe/Madrid' },
    });
    account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true }, 'otro.test': { hasService: true } },
    });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const reader = await buildUser(t.database.db, account, 'cron-reader', {
      [domain]: { ...allKeys('disabled'), service: 'read', service_cron: 'read' },
    });
    readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const none = await buildUser(t.database.db, account, 'cron-none', {
      [domain]: { ...allKeys('disabled'), service: 'write' },
    });
    noneCookie = await t.login(account.domainName, none.username, none.password);
  });
  afterAll(() => t.close());

  const call = <T>(route: string, params: Record<string, string> = {}, as = cookie) =>
    t.call<T>('POST', `service/${id}/cron/${route}`, params, { cookie: as });
  const list = async (as = cookie) => (await call<CronListData>('list/', {}, as)).body;
  /** The task's run of that trigger once it has ended (the work log's worker runs it). */
  const finishedRun = async (taskId: number, trigger: 'manual' | 'schedule') => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const runs = (await call<CronRunsData>(`${taskId}/runs/`)).body.data.runs;
      const ended = runs.find((one) => one.trigger === trigger && one.outcome !== 'running');
      if (ended) return ended;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${trigger} run of task ${taskId} ended`);
  };

  it('lists no tasks at first, with the plan’s limits and the time zone', async () => {
    const answer = await list();
    expect(answer.system.valid).toBe(true);
    expect(answer.data).toEqual({
      tasks: [],
      limits: { maxTasks: 10, minIntervalMinutes: 5 },
      timezone: 'Europe/Madrid',
    });
  });

  it('refuses each bad field with its own error, all at once', async () => {
    const bad = await call('create/', { kind: 'perl', target: 'x', schedule: '* *', email: 'no-mail' });
    expect(bad.body.system.inputs).toEqual(['kind', 'schedule', 'email']);
    for (const [target, field] of [
      ['../otro/x.php', 'target'],
      ['/etc/passwd', 'target'],
      ['cron/script.sh', 'target'],
      ['cron/./x.php', 'target'],
    ] as const) {
      const answer = await call('create/', { ...SCRIPT, target });
      expect(answer.body.system.inputs, target).toEqual([field]);
      expect(answer.body.system.errors).toEqual([translate('es', 'cron.error.script')]);
    }
    for (const target of ['https://otro.test/cron', 'ftp://tareas.test/x', 'https://user:pw@tareas.test/x', 'nada']) {
      const answer = await call('create/', { ...SCRIPT, kind: 'url', target });
      expect(answer.body.system.errors, target).toEqual([translate('es', 'cron.error.url')]);
    }
    for (const schedule of ['61 * * * *', '* * * * * *', '0 0 30 2 *', 'rm -rf /']) {
      const answer = await call('create/', { ...SCRIPT, schedule });
      expect(answer.body.system.inputs, schedule).toEqual(['schedule']);
    }
    // the plan's shortest interval (5 minutes)
    const often = await call('create/', { ...SCRIPT, schedule: '*/2 * * * *' });
    expect(often.body.system.errors).toEqual([translate('es', 'cron.error.interval', { minutes: 5 })]);
    expect((await list()).data.tasks).toEqual([]);
  });

  it('previews a schedule in the user’s language with its next runs', async () => {
    const preview = await call<CronPreviewData>('preview/', { schedule: ' 30   3 * * 1 ' });
    expect(preview.body.data.description).toMatch(/03:30/);
    expect(preview.body.data.nextRuns).toHaveLength(3);
    const [first, second] = preview.body.data.nextRuns as [number, number];
    expect(second - first).toBe(7 * 86400);
    const wrong = await call('preview/', { schedule: 'cada lunes' });
    expect(wrong.body.system.inputs).toEqual(['schedule']);
  });

  it('creates a script task and a URL task, edits, switches off and removes them; each in the activity log', async () => {
    const created = await call<{ tasks: CronTask[] }>('create/', { ...SCRIPT, target: './cron/limpieza.php' });
    expect(created.body.system.valid, created.body.system.errors.join()).toBe(true);
    expect(created.body.data.tasks).toMatchObject([
      { kind: 'php', target: 'cron/limpieza.php', schedule: '*/15 * * * *', enabled: true, lastRun: null },
    ]);
    expect(created.body.data.tasks[0]?.nextRuns).toHaveLength(3);
    const url = await call<{ tasks: CronTask[] }>('create/', {
      kind: 'url',
      target: 'https://www.tareas.test/wp-cron.php?doing_wp_cron',
      schedule: '0 * * * *',
      email: 'avisos@tareas.test',
    });
    expect(url.body.system.valid, url.body.system.errors.join()).toBe(true);
    const task = url.body.data.tasks[1] as CronTask;
    expect(task).toMatchObject({ kind: 'url', email: 'avisos@tareas.test' });

    const saved = await call<{ tasks: CronTask[] }>(`${task.id}/save/`, {
      kind: 'url',
      target: task.target,
      schedule: '30 2 * * *',
      email: '',
      enabled: '0',
    });
    expect(saved.body.system.valid, saved.body.system.errors.join()).toBe(true);
    expect(saved.body.data.tasks[1]).toMatchObject({ schedule: '30 2 * * *', email: '', enabled: false });

    const log = await t.call<ActivityListData>('GET', 'activity/list/', { area: 'cron' }, { cookie });
    expect(log.body.data.entries.length).toBeGreaterThanOrEqual(3);
    const edit = log.body.data.entries[0];
    expect(edit?.changes.map((c) => c.field).sort()).toEqual(['email', 'enabled', 'schedule']);

    const removed = await call<{ tasks: CronTask[] }>(`${task.id}/delete/`);
    expect(removed.body.data.tasks.map((one) => one.id)).not.toContain(task.id);
  });

  it('holds a service to its plan’s number of tasks', async () => {
    const plans = createPlansService(
      t.database.db,
      t.config,
      () => Math.floor(t.clock.now() / 1000),
      t.services.hosting,
    );
    await plans.update('default', { cronTasks: 2 });
    try {
      const second = await call('create/', { ...SCRIPT, target: 'dos.php' });
      expect(second.body.system.valid).toBe(true);
      const third = await call('create/', { ...SCRIPT, target: 'tres.php' });
      expect(third.body.system.valid).toBe(false);
      expect(third.body.system.errors).toEqual([translate('es', 'plan.error.cronTasks', { limit: 2 })]);
      expect((await list()).data.limits.maxTasks).toBe(2);
    } finally {
      await plans.update('default', { cronTasks: 10 });
    }
  });

  it('read sees, write acts; without the key and for another account the service is not there', async () => {
    expect((await list(readerCookie)).data.tasks.length).toBeGreaterThan(0);
    const refused = await call('create/', SCRIPT, readerCookie);
    expect(refused.response.statusCode).toBe(403);
    expect((await call('list/', {}, noneCookie)).response.statusCode).toBe(404);
    const other = await buildAccount(t.database.db, { domainName: 'ajena.test' });
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    expect((await call('list/', {}, otherCookie)).response.statusCode).toBe(404);
    const task = (await list()).data.tasks[0] as CronTask;
    expect((await call(`${task.id}/runs/`, {}, otherCookie)).response.statusCode).toBe(404);
  });

  it('the round sends a task once at its minute, whatever the instances; Run now records a run', async () => {
    const task = (await list()).data.tasks[0] as CronTask;
    // to the next quarter hour: the task's minute
    const next = task.nextRuns[0] as number;
    t.clock.advance(next - Math.floor(t.clock.now() / 1000) + 5);
    const scheduler = t.services.cronScheduler;
    const [first, second] = await Promise.all([scheduler.sendDue(), scheduler.sendDue()]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    expect(await scheduler.sendDue()).toBe(0);

    const run = await call(`${task.id}/run/`);
    expect(run.body.system.valid, run.body.system.errors.join()).toBe(true);
    // the script is not there: PHP says so, and the run failed
    expect(await finishedRun(task.id, 'manual')).toMatchObject({ outcome: 'failed', trigger: 'manual' });
  });

  it('mails a finished run’s output to the task’s address once, through the outbox', async () => {
    const created = await call<{ tasks: CronTask[] }>('create/', {
      ...SCRIPT,
      target: 'avisa.php',
      email: 'salida@tareas.test',
    });
    const task = created.body.data.tasks.find((one) => one.target === 'avisa.php') as CronTask;
    await call(`${task.id}/run/`);
    await finishedRun(task.id, 'manual');
    expect(await t.services.cronScheduler.mailOutputs()).toBe(1);
    expect(await t.services.cronScheduler.mailOutputs()).toBe(0);
    const mails = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'to_address', 'subject', 'body'])
      .where('kind', '=', 'cron_output')
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: 'salida@tareas.test' });
    expect(mails[0]?.subject).toContain(domain);
    expect(mails[0]?.body).toContain('avisa.php');
  });
});
