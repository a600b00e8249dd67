import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BackupJob, BackupsListData } from '@panel247/contract/backups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { createDnsDriver } from '../../src/drivers/dns/create-dns-driver.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { createBackupService } from '../../src/modules/backups/create-backup-service.ts';
import { buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/**
 * The Backups view's calls: the snapshots of a service, a backup now and a restore, each a job
 * the page follows; with Debian's restic behind them (the integration tier proves the daemons).
 */
describe.each(DATABASE_KINDS)('backups API on %s', (kind) => {
  requireBinary('restic', 'restic');
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-backups-api-'));
  const domain = 'respaldo.test';
  const home = path.join(dir, 'www', domain);
  let t: TestApp;
  let id: number;
  let cookie: string;
  let readerCookie: string;
  let noneCookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        dataDir: path.join(dir, 'data'),
        'hosting.root': path.join(dir, 'www'),
        'mail.root': path.join(dir, 'mail'),
      },
    });
    const account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true } },
    });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const reader = await buildUser(t.database.db, account, 'backups-reader', {
      [domain]: { ...allKeys('disabled'), service: 'read', service_backups: 'read' },
    });
    readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const none = await buildUser(t.database.db, account, 'backups-none', {
      [domain]: { ...allKeys('disabled'), service: 'write' },
    });
    noneCookie = await t.login(account.domainName, none.username, none.password);
    mkdirSync(path.join(home, 'site'), { recursive: true });
    writeFileSync(path.join(home, 'site', 'index.html'), '<h1>respaldo</h1>');
    // The home as its service has it: the hosting user's (restores run with its rights as root).
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', '33:33', home]);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = (as = cookie) => t.call<BackupsListData>('GET', `service/${id}/backups/list/`, {}, { cookie: as });
  /** Follows a job the way the page does, until it ends (no time limit of its own). */
  const finished = async (job: BackupJob): Promise<BackupJob> => {
    let current = job;
    while (current.status === 'running' || current.status === 'queued') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = (await t.call<{ job: BackupJob }>('GET', `service/${id}/backups/job/${job.id}/`, {}, { cookie })).body
        .data.job;
    }
    return current;
  };

  it('backs a service up as a job, then lists the snapshot with what it holds', async () => {
    expect((await list()).body.data).toEqual({
      snapshots: [],
      usage: 0,
      limit: 10_240 * 1024 * 1024,
      writable: true,
      job: null,
    });
    const started = await t.call<{ job: BackupJob }>('POST', `service/${id}/backups/run/`, {}, { cookie });
    expect(started.body.system.info).toEqual(['Copia de seguridad en marcha']);
    expect(await finished(started.body.data.job)).toMatchObject({
      kind: 'backup',
      status: 'done',
      step: 'done',
      error: '',
    });
    const { snapshots, usage } = (await list()).body.data;
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ holds: { files: true, mailboxes: [], mailFolders: {}, databases: [] } });
    expect(snapshots[0]?.id).toMatch(/^[0-9a-f]{8}$/);
    expect(usage).toBeGreaterThan(0);
  });

  it('restores over the current files only when told to, and into a new folder without asking', async () => {
    const [snapshot] = (await list()).body.data.snapshots;
    rmSync(path.join(home, 'site'), { recursive: true });
    const unconfirmed = await t.call(
      'POST',
      `service/${id}/backups/restore/`,
      { snapshot: snapshot?.id as string, what: 'files', path: 'site' },
      { cookie },
    );
    expect(unconfirmed.body.system.inputs).toEqual(['overwrite']);
    // a mailbox folder is a Maildir++ one (`.Sent`): never a path, never the inbox's own folders
    for (const mailFolder of ['../x', 'cur', '.Sent/../..', '..']) {
      const folder = await t.call(
        'POST',
        `service/${id}/backups/restore/`,
        { snapshot: snapshot?.id as string, what: 'mailbox', mailbox: 'info', mailFolder, overwrite: 'true' },
        { cookie },
      );
      expect(folder.body.system.errors, mailFolder).toEqual(['Esa carpeta no es una carpeta del buzón']);
      expect(folder.body.system.inputs).toEqual(['mailFolder']);
    }
    const aside = await t.call<{ job: BackupJob }>(
      'POST',
      `service/${id}/backups/restore/`,
      { snapshot: snapshot?.id.slice(0, 8) as string, what: 'files', path: 'site', toFolder: 'copia' },
      { cookie },
    );
    expect(await finished(aside.body.data.job)).toMatchObject({ kind: 'restore', status: 'done' });
    expect(readFileSync(path.join(home, 'copia', 'site', 'index.html'), 'utf8')).toBe('<h1>respaldo</h1>');
    expect(existsSync(path.join(home, 'site'))).toBe(false);
    const inPlace = await t.call<{ job: BackupJob }>(
      'POST',
      `service/${id}/backups/restore/`,
      { snapshot: snapshot?.id as string, what: 'files', path: 'site', overwrite: 'true' },
      { cookie },
    );
    expect(await finished(inPlace.body.data.job)).toMatchObject({ status: 'done' });
    expect(readFileSync(path.join(home, 'site', 'index.html'), 'utf8')).toBe('<h1>respaldo</h1>');
    // A customer replaced the folder by a link to another site's root since the backup: the
    // restore puts the folder back in the link's place and leaves the other site untouched.
    const neighbour = path.join(dir, 'www', 'neighbour.test');
    mkdirSync(neighbour, { recursive: true });
    writeFileSync(path.join(neighbour, 'index.html'), 'neighbour');
    rmSync(path.join(home, 'site'), { recursive: true });
    symlinkSync(neighbour, path.join(home, 'site'));
    for (const what of [{ path: 'site/index.html' }, { path: 'site' }]) {
      const overLink = await t.call<{ job: BackupJob }>(
        'POST',
        `service/${id}/backups/restore/`,
        { snapshot: snapshot?.id as string, what: 'files', ...what, overwrite: 'true' },
        { cookie },
      );
      expect(await finished(overLink.body.data.job)).toMatchObject({ status: 'done' });
      expect(readFileSync(path.join(neighbour, 'index.html'), 'utf8')).toBe('neighbour');
      expect(lstatSync(path.join(home, 'site')).isDirectory()).toBe(true);
      expect(readFileSync(path.join(home, 'site', 'index.html'), 'utf8')).toBe('<h1>respaldo</h1>');
      rmSync(path.join(home, 'site'), { recursive: true });
      symlinkSync(neighbour, path.join(home, 'site'));
    }
    rmSync(path.join(home, 'site'));
    mkdirSync(path.join(home, 'site'));
    writeFileSync(path.join(home, 'site', 'index.html'), '<h1>respaldo</h1>');
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', '33:33', path.join(home, 'site')]);
    // a path the snapshot does not hold fails the job with a reason
    const missing = await t.call<{ job: BackupJob }>(
      'POST',
      `service/${id}/backups/restore/`,
      { snapshot: snapshot?.id as string, what: 'files', path: 'nothing/here', overwrite: 'true' },
      { cookie },
    );
    expect(await finished(missing.body.data.job)).toMatchObject({
      status: 'failed',
      error: 'La copia de seguridad no contiene eso',
    });
    // the whole service: every part the snapshot holds, over what is there now
    rmSync(path.join(home, 'site'), { recursive: true });
    const whole = await t.call<{ job: BackupJob }>(
      'POST',
      `service/${id}/backups/restore/`,
      { snapshot: snapshot?.id as string, what: 'service', overwrite: 'true' },
      { cookie },
    );
    expect(await finished(whole.body.data.job)).toMatchObject({ status: 'done' });
    expect(readFileSync(path.join(home, 'site', 'index.html'), 'utf8')).toBe('<h1>respaldo</h1>');
    const unknown = await t.call(
      'POST',
      `service/${id}/backups/restore/`,
      { snapshot: 'deadbeefdeadbeef', what: 'dns', overwrite: 'true' },
      { cookie },
    );
    expect(unknown.response.statusCode).toBe(404);
  });

  it('runs one job per service at a time, and refuses a backup once the quota is used', async () => {
    const now = Math.floor(Date.now() / 1000);
    await t.database.db
      .insertInto('backup_jobs')
      .values({
        id: 'a'.repeat(32),
        user_id: null,
        service_id: id,
        kind: 'backup',
        status: 'running',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const busy = await t.call('POST', `service/${id}/backups/run/`, {}, { cookie });
    expect(busy.body.system.errors).toEqual(['Ya hay una copia o una restauración en marcha para este servicio']);
    expect((await list()).body.data.job).toMatchObject({ id: 'a'.repeat(32), status: 'running' });
    // a row whose work the engine does not hold (given up on, or never sent) no longer blocks
    // once past the moment its work would have been sent, and says it failed
    await t.database.db
      .updateTable('backup_jobs')
      .set({ created_at: now - 600 })
      .where('id', '=', 'a'.repeat(32))
      .execute();
    expect((await list()).body.data.job).toBeNull();
    const lost = await t.call<{ job: BackupJob }>(
      'GET',
      `service/${id}/backups/job/${'a'.repeat(32)}/`,
      {},
      { cookie },
    );
    expect(lost.body.data.job).toMatchObject({ status: 'failed' });

    await t.database.db
      .insertInto('backup_snapshots')
      .values({
        service_id: id,
        snapshot_id: 'f'.repeat(64),
        created_at: now,
        size_bytes: 1,
        added_bytes: 20 * 1024 ** 3,
        holds: '{}',
      })
      .execute();
    const full = await t.call('POST', `service/${id}/backups/run/`, {}, { cookie });
    expect(full.body.system.errors).toEqual([
      'Las copias de seguridad de este servicio han llenado el espacio del plan',
    ]);
    await t.database.db.deleteFrom('backup_snapshots').where('snapshot_id', '=', 'f'.repeat(64)).execute();
  });

  it('takes the daily backup once a day, on one instance only, once its time has come', async () => {
    const instance = () =>
      createBackupService(t.database.db, t.config, createDnsDriver(t.config), TEST_SECRET_KEY, () => 0);
    const [first, second] = [instance(), instance()];
    try {
      const day = Date.parse('2031-05-04T00:00:00Z') / 1000;
      expect(await first.backups.takeDailyRun('03:00', day + 2 * 3600)).toBeUndefined();
      const taken = await Promise.all([
        first.backups.takeDailyRun('03:00', day + 3 * 3600 + 60),
        second.backups.takeDailyRun('03:00', day + 3 * 3600 + 61),
      ]);
      expect(taken.filter((taker) => taker !== undefined)).toEqual(['2031-05-04']);
      expect((await first.backups.runAll()).map((run) => run.reference)).toEqual([domain]);
      expect(await first.backups.takeDailyRun('03:00', day + 23 * 3600)).toBeUndefined();
      expect(await first.backups.takeDailyRun('', day + 27 * 3600 + 60)).toBeUndefined();
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('gives each service a repository of its own when the location names {service}', async () => {
    const config = { ...t.config, backups: { ...t.config.backups, repository: path.join(dir, 'per', '{service}') } };
    const { backups, close } = createBackupService(
      t.database.db,
      config,
      createDnsDriver(config),
      TEST_SECRET_KEY,
      () => 0,
    );
    try {
      const [run] = await backups.run(domain);
      expect(run?.snapshot).not.toBeNull();
      expect(existsSync(path.join(dir, 'per', String(id), 'config'))).toBe(true);
      expect((await backups.list(domain)).map((s) => s.id.slice(0, 8))).toEqual([run?.snapshot?.id.slice(0, 8)]);
      await backups.prune();
      expect(await backups.check()).toMatch(/no errors were found/);
    } finally {
      await close();
    }
  });

  it('lets a reader see the snapshots but not act, and hides them without the backups right', async () => {
    const reading = await list(readerCookie);
    expect(reading.body.data.writable).toBe(false);
    expect(reading.body.data.snapshots.length).toBeGreaterThan(0);
    expect((await t.call('POST', `service/${id}/backups/run/`, {}, { cookie: readerCookie })).response.statusCode).toBe(
      403,
    );
    expect((await list(noneCookie)).response.statusCode).toBe(404);
  });
});
