import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CronRunsData, CronTask } from '@panel247/contract/cron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { buildAccount, resourceIdsAfter } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { freeUidRange, nestedSettings, type Passwd, passwd, removeSystemUsers } from '../support/system-users.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const run = promisify(execFile);
const BASE_ID = 100_000 + Math.floor(Math.random() * 800_000);

/** A PHP script that says who runs it, writes a file in its home and tries another's file. */
const script = (other: string) => `<?php
$me = posix_getpwuid(posix_geteuid())['name'];
file_put_contents(__DIR__ . '/../informe.txt', "hecho por $me\\n");
echo "soy $me\\n";
echo @file_get_contents(${JSON.stringify(other)}) === false ? "ajeno: denegado\\n" : "ajeno: LEÍDO\\n";
exit(3);
`;

/**
 * Scheduled tasks with real system users: service A's task, sent by the round at its minute, runs
 * with PHP's CLI as A's own user on the (embedded) web server; the file it writes is A's and B's
 * user cannot read it; it cannot read B's home either. Every account made is removed at the end.
 */
describe('scheduled tasks run as the service’s own system user', () => {
  let database: TestDatabase;
  let t: TestApp;
  let cookie: string;
  let dataDir: string;
  let homes: string;
  const ACCOUNT = `cron${BASE_ID}.test`;
  const A = { domain: `a${BASE_ID}.test`, user: `p247s${BASE_ID + 1}`, id: BASE_ID + 1 };
  const B = { domain: `b${BASE_ID}.test`, user: `p247s${BASE_ID + 2}`, id: BASE_ID + 2 };
  const home = (service: { domain: string }) => path.join(homes, service.domain);

  beforeAll(async () => {
    if (process.getuid?.() !== 0) throw new Error('this test makes system users: run it as root');
    for (const binary of ['useradd', 'userdel', 'getent']) requireBinary(binary, 'passwd');
    requireBinary('php', 'php-cli');
    const range = await freeUidRange();
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-crondata-'));
    chmodSync(dataDir, 0o700);
    homes = mkdtempSync(path.join(tmpdir(), 'p247-cronhomes-'));
    chmodSync(homes, 0o755);
    database = await createTestDatabase('sqlite', { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    const settings = {
      dataDir,
      secretKey: TEST_SECRET_KEY.toString('hex'),
      logLevel: 'silent',
      'hosting.root': homes,
      'serviceUsers.driver': 'system',
      'serviceUsers.uidMin': range.min,
      'serviceUsers.uidMax': range.max,
    };
    const configFile = path.join(dataDir, 'panel247.json');
    writeFileSync(configFile, JSON.stringify(nestedSettings(settings)));
    t = await buildTestApp('sqlite', { database, config: settings });
    const account = await buildAccount(database.db, { domainName: ACCOUNT, resources: {} });
    await resourceIdsAfter(database.db, account.accountId, BASE_ID);
    for (const service of [A, B]) {
      const made = await runPanel({ PANEL_CONFIG_FILE: configFile }, [
        'resource',
        'add',
        '--domain',
        ACCOUNT,
        '--reference',
        service.domain,
        '--service',
        '--grant-user',
        account.username,
        '--json',
      ]);
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse(made.stdout).id).toBe(service.id);
    }
    cookie = await t.login(ACCOUNT, account.username, account.password);
  });

  afterAll(async () => {
    await t?.close();
    await database?.destroy();
    await removeSystemUsers([A.user, B.user]);
    for (const folder of [dataDir, homes]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('runs at its minute as A’s user; what it writes is A’s, and B cannot read it', async () => {
    const a = (await passwd(A.user)) as Passwd;
    const b = (await passwd(B.user)) as Passwd;
    expect(a.uid).not.toBe(b.uid);
    // the customer's script, uploaded into A's home (as A), and a secret of B's
    mkdirSync(path.join(home(A), 'cron'), { recursive: true });
    chownSync(path.join(home(A), 'cron'), a.uid, a.gid);
    const file = path.join(home(A), 'cron', 'informe.php');
    writeFileSync(file, script(path.join(home(B), 'secreto.txt')));
    chownSync(file, a.uid, a.gid);
    writeFileSync(path.join(home(B), 'secreto.txt'), 'de B');
    chownSync(path.join(home(B), 'secreto.txt'), b.uid, b.gid);

    const created = await t.call<{ tasks: CronTask[] }>(
      'POST',
      `service/${A.id}/cron/create/`,
      { kind: 'php', target: 'cron/informe.php', schedule: '*/5 * * * *', email: '' },
      { cookie },
    );
    expect(created.body.system.valid, created.body.system.errors.join()).toBe(true);
    const task = created.body.data.tasks[0] as CronTask;

    // a minute that is not its own sends nothing; its minute sends it once
    const now = Math.floor(t.clock.now() / 1000);
    const due = task.nextRuns[0] as number;
    t.clock.advance(due - 60 - now + 1);
    expect(await t.services.cronScheduler.sendDue()).toBe(0);
    t.clock.advance(60);
    expect(await t.services.cronScheduler.sendDue()).toBe(1);

    // the node's worker runs it (the embedded engine): wait for the run's end
    const until = Date.now() + 60_000;
    let runs: CronRunsData['runs'] = [];
    while (Date.now() < until) {
      runs = (await t.call<CronRunsData>('GET', `service/${A.id}/cron/${task.id}/runs/`, {}, { cookie })).body.data
        .runs;
      if (runs[0] && runs[0].outcome !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(runs[0]).toMatchObject({
      trigger: 'schedule',
      outcome: 'failed',
      exitCode: 3,
      output: `soy ${A.user}\najeno: denegado\n`,
    });

    const written = path.join(home(A), 'informe.txt');
    const stat = statSync(written);
    expect([stat.uid, stat.gid]).toEqual([a.uid, a.gid]);
    // B's user is refused by the kernel (A's home is A's and the web server's only)
    const asB = await run('cat', [written], { uid: b.uid, gid: b.gid }).catch((error: { stderr: string }) => error);
    expect((asB as { stderr: string }).stderr).toMatch(/Permission denied/);
  });
});
