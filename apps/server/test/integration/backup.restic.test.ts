import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { ResticDriver } from '../../src/drivers/backups/restic.driver.ts';

/** Debian's restic against a folder repository: what every backup of the panel stands on. */
describe('the restic backup driver', () => {
  const binary = requireBinary('restic', 'restic');
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-restic-'));
  const options = { repository: path.join(dir, 'repository'), passwordFile: path.join(dir, 'password'), binary };
  const restic = new ResticDriver(options);
  const data = path.join(dir, 'data');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes its repository and password file once, then opens it again', async () => {
    await restic.ensureRepository();
    expect(statSync(options.passwordFile).mode & 0o777).toBe(0o600);
    const password = readFileSync(options.passwordFile, 'utf8');
    await restic.ensureRepository();
    expect(readFileSync(options.passwordFile, 'utf8')).toBe(password);
    expect(await restic.snapshots([])).toEqual([]);
  });

  it('made by several processes at once (the daily run beside a command), one repository that every one opens', async () => {
    const shared = path.join(dir, 'made-together');
    const together = {
      ...options,
      repository: path.join(shared, 'repository'),
      passwordFile: path.join(shared, 'password'),
    };
    // Before, each restic init wrote a config and a key of its own: a repository no key opened.
    await Promise.all(Array.from({ length: 4 }, () => new ResticDriver(together).ensureRepository()));
    const folder = path.join(shared, 'data');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'file.txt'), 'together');
    for (const driver of [new ResticDriver(together), new ResticDriver(together)])
      expect((await driver.backup([folder], ['service:1'])).id).toMatch(/^[0-9a-f]{8}/);
    expect(readdirSync(shared).sort()).toEqual(['cache', 'data', 'password', 'repository']);
  });

  it('backs a folder up, lists the snapshot by its tags, and restores it byte for byte', async () => {
    mkdirSync(path.join(data, 'site', 'img'), { recursive: true });
    const image = randomBytes(300_000);
    writeFileSync(path.join(data, 'site', 'img', 'logo.png'), image);
    writeFileSync(path.join(data, 'site', 'index.php'), '<?php echo 1;');
    const snapshot = await restic.backup([data], ['service:7']);
    expect(snapshot.tags).toEqual(['service:7']);
    expect(snapshot.paths).toEqual([data]);
    expect(snapshot.id).toMatch(/^[0-9a-f]{8,}$/);
    expect((await restic.snapshots(['service:7'])).map((s) => s.id.slice(0, snapshot.id.length))).toEqual([
      snapshot.id,
    ]);
    expect(await restic.snapshots(['service:8'])).toEqual([]);

    rmSync(path.join(data, 'site'), { recursive: true });
    const target = path.join(dir, 'restored');
    await restic.restore(snapshot.id, [path.join(data, 'site', 'img')], target);
    expect(readFileSync(path.join(target, data, 'site', 'img', 'logo.png')).equals(image)).toBe(true);
    // only what was included came back
    expect(() => statSync(path.join(target, data, 'site', 'index.php'))).toThrow();
    await expect(restic.restore('not-an-id', [data], target)).rejects.toThrow();
  });

  it('a backup killed halfway leaves the repository consistent, and the next run succeeds', async () => {
    mkdirSync(path.join(data, 'big'), { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(path.join(data, 'big', `part-${i}.bin`), randomBytes(2_000_000));
    const child = spawn(binary, ['backup', '--tag', 'service:7', data], {
      env: { ...process.env, RESTIC_REPOSITORY: options.repository, RESTIC_PASSWORD_FILE: options.passwordFile },
      stdio: 'ignore',
    });
    // killed as soon as it has started writing (its lock file is there)
    const locks = path.join(options.repository, 'locks');
    for (let i = 0; i < 200; i++) {
      if (readdirSync(locks).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    await restic.unlock();
    expect(await restic.check()).toMatch(/no errors were found/);
    const next = await restic.backup([data], ['service:7']);
    expect(next.paths).toEqual([data]);
    expect(await restic.check()).toMatch(/no errors were found/);
  });

  it('waits for a lock another restic holds (a prune) instead of failing, within its limit', async () => {
    // a `restic prune` takes the repository exclusively; frozen once its lock is there, it holds it
    const pruner = spawn(binary, ['prune'], {
      env: { ...process.env, RESTIC_REPOSITORY: options.repository, RESTIC_PASSWORD_FILE: options.passwordFile },
      stdio: 'ignore',
    });
    const locks = path.join(options.repository, 'locks');
    // restic writes its lock as `<id>-tmp-<n>` and then renames it to `<id>`: only the renamed
    // file is a lock another restic sees, so the prune is frozen once that one is there.
    const held = () => readdirSync(locks).some((name) => /^[0-9a-f]{64}$/.test(name));
    // restic first opens the repository's key (scrypt): seconds on a busy machine before its lock
    const until = Date.now() + 60_000;
    while (!held() && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    pruner.kill('SIGSTOP');
    expect(held(), 'the prune took its lock').toBe(true);
    try {
      const impatient = new ResticDriver({ ...options, lockWaitMs: 0 });
      await expect(impatient.snapshots([])).rejects.toMatchObject({ messageKey: 'backup.error.engine' });
      let released = false;
      const listing = restic.snapshots([]).then((list) => ({ list, afterRelease: released }));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      released = true;
      pruner.kill('SIGCONT');
      const { list, afterRelease } = await listing;
      expect(afterRelease).toBe(true);
      expect(list.length).toBeGreaterThan(0);
    } finally {
      pruner.kill('SIGCONT');
      await new Promise((resolve) => (pruner.exitCode === null ? pruner.once('close', resolve) : resolve(null)));
    }
  }, 180_000);

  it('keeps every snapshot of the last hours besides one a day: a backup taken this morning survives', async () => {
    await restic.backup([data], ['service:7']);
    const before = (await restic.snapshots(['service:7'])).length;
    expect(before).toBeGreaterThan(1);
    await restic.forget([], { daily: 1, weekly: 0, monthly: 0, withinHours: 48 });
    expect((await restic.snapshots(['service:7'])).length).toBe(before);
  });

  it('keeps what the retention says per tag group and prunes the rest', async () => {
    await restic.backup([data], ['service:8']);
    await restic.forget([], { daily: 1, weekly: 0, monthly: 0 });
    // one snapshot a day per service: the newest of service 7, the one of service 8
    expect((await restic.snapshots(['service:7'])).length).toBe(1);
    expect((await restic.snapshots(['service:8'])).length).toBe(1);
  });
});
