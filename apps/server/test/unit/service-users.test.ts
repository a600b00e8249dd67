import { lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../src/config.ts';
import { HOME_MODE, HomeOwners } from '../../src/drivers/homes/home-owner.ts';
import { DEBIAN_COMMANDS, type Executed, SystemServiceUserDriver } from '../../src/drivers/users/system.driver.ts';
import { SERVICE_USER_NAME, serviceUserName } from '../../src/drivers/users/users.driver.ts';
import { DEFAULT_WEB_TEMPLATES } from '../../src/drivers/web/create-web-driver.ts';
import { EmbeddedWebDriver } from '../../src/drivers/web/embedded.driver.ts';
import type { WebService } from '../../src/drivers/web/web.driver.ts';
import { DaemonError, FieldErrors } from '../../src/errors.ts';

/**
 * A fake system: passwd and group entries in memory, and the commands the driver ran, as argument
 * arrays. getent answers 2 for a missing key, as glibc's does.
 */
function fakeSystem() {
  const passwd = new Map<string, { uid: number; gid: number; home: string; shell: string }>();
  const groups = new Map<string, number>();
  const calls: string[][] = [];
  const ok = (stdout = ''): Executed => ({ code: 0, stdout, stderr: '' });
  const run = async (file: string, args: string[]): Promise<Executed> => {
    calls.push([file, ...args]);
    const [first = '', second = ''] = args;
    if (file === DEBIAN_COMMANDS.getent) {
      if (first === 'passwd' && args.length === 1) {
        return ok(
          [...passwd].map(([name, u]) => `${name}:x:${u.uid}:${u.gid}::${u.home}:${u.shell}`).join('\n') +
            '\nroot:x:0:0:root:/root:/bin/bash\n',
        );
      }
      if (first === 'passwd') {
        const found = [...passwd].find(([name, u]) => name === second || String(u.uid) === second);
        return found
          ? ok(`${found[0]}:x:${found[1].uid}:${found[1].gid}::${found[1].home}:${found[1].shell}\n`)
          : { code: 2, stdout: '', stderr: '' };
      }
      const found = [...groups].find(([name, gid]) => name === second || String(gid) === second);
      return found ? ok(`${found[0]}:x:${found[1]}:\n`) : { code: 2, stdout: '', stderr: '' };
    }
    if (file === DEBIAN_COMMANDS.groupadd) {
      groups.set(args[2] as string, Number(args[1]));
      return ok();
    }
    if (file === DEBIAN_COMMANDS.useradd) {
      const name = args[args.length - 1] as string;
      passwd.set(name, {
        uid: Number(args[1]),
        gid: Number(args[3]),
        home: args[6] as string,
        shell: args[8] as string,
      });
      return ok();
    }
    if (file === DEBIAN_COMMANDS.userdel) {
      passwd.delete(first);
      return ok();
    }
    if (file === DEBIAN_COMMANDS.groupdel) {
      groups.delete(first);
      return ok();
    }
    return { code: 127, stdout: '', stderr: 'unknown command' };
  };
  return { passwd, groups, calls, run };
}

const USER = { name: 'p247s12', uid: 20012, gid: 20012, home: '/var/www/panel247/shop.test' };
/** The commands that change the system, without the look-ups. */
const changes = (calls: string[][]) => calls.filter((call) => call[0] !== DEBIAN_COMMANDS.getent);

describe('service user names', () => {
  it('are p247s and the service id: at most 32 characters, valid for useradd, never a number alone', () => {
    expect(serviceUserName(12)).toBe('p247s12');
    expect(serviceUserName(Number.MAX_SAFE_INTEGER)).toBe('p247s9007199254740991');
    expect(serviceUserName(Number.MAX_SAFE_INTEGER).length).toBeLessThanOrEqual(32);
    // useradd's NAME_REGEX on Debian: ^[a-z][-a-z0-9_]*\$?$
    expect(serviceUserName(1)).toMatch(/^[a-z][-a-z0-9_]*$/);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => serviceUserName(bad)).toThrow();
    expect(SERVICE_USER_NAME.test('p247s12')).toBe(true);
    for (const other of ['p247s', 'p247s012', 'www-data', 'p247s1x', 'xp247s1'])
      expect(SERVICE_USER_NAME.test(other)).toBe(false);
  });
});

describe('the system users driver (a fake executor)', () => {
  it('creates the group, then the user with exactly these argument arrays', async () => {
    const system = fakeSystem();
    const driver = new SystemServiceUserDriver(system.run);
    expect(await driver.check(USER)).toEqual({ state: 'missing' });
    expect(await driver.ensure(USER)).toBe('created');
    expect(changes(system.calls)).toEqual([
      ['/usr/sbin/groupadd', '-g', '20012', 'p247s12'],
      [
        '/usr/sbin/useradd',
        '-u',
        '20012',
        '-g',
        '20012',
        '-M',
        '-d',
        '/var/www/panel247/shop.test',
        '-s',
        '/usr/sbin/nologin',
        'p247s12',
      ],
    ]);
    expect(await driver.check(USER)).toEqual({ state: 'present' });
  });

  it('is idempotent: an account already there with the same name and numbers changes nothing', async () => {
    const system = fakeSystem();
    const driver = new SystemServiceUserDriver(system.run);
    await driver.ensure(USER);
    system.calls.length = 0;
    expect(await driver.ensure(USER)).toBe('present');
    expect(changes(system.calls)).toEqual([]);
    // a group left by a half-finished run: only the user is added
    system.passwd.delete('p247s12');
    system.calls.length = 0;
    expect(await driver.ensure(USER)).toBe('created');
    expect(changes(system.calls).map((call) => call[0])).toEqual(['/usr/sbin/useradd']);
  });

  it('refuses a name or number another account holds, before changing anything', async () => {
    const cases: [string, (system: ReturnType<typeof fakeSystem>) => void, RegExp][] = [
      [
        'uid taken',
        (s) => s.passwd.set('someone', { uid: 20012, gid: 100, home: '/home/x', shell: '/bin/sh' }),
        /uid 20012 is the user someone's/,
      ],
      ['gid taken', (s) => s.groups.set('staff2', 20012), /gid 20012 is the group staff2's/],
      [
        'name with another uid',
        (s) => {
          s.groups.set('p247s12', 20012);
          s.passwd.set('p247s12', { uid: 20999, gid: 20012, home: '/x', shell: '/bin/sh' });
        },
        /user p247s12 has uid 20999/,
      ],
      ['group name with another gid', (s) => s.groups.set('p247s12', 20500), /group p247s12 has gid 20500/],
    ];
    for (const [label, arrange, message] of cases) {
      const system = fakeSystem();
      arrange(system);
      const driver = new SystemServiceUserDriver(system.run);
      const state = await driver.check(USER);
      expect(state.state, label).toBe('clash');
      const error = await driver.ensure(USER).catch((thrown: unknown) => thrown);
      expect(error, label).toBeInstanceOf(DaemonError);
      expect((error as DaemonError).detail, label).toMatch(message);
      expect(changes(system.calls), label).toEqual([]);
    }
  });

  it('refuses what is not a service user: another name, a system uid, a home passwd cannot hold', async () => {
    const driver = new SystemServiceUserDriver(fakeSystem().run);
    await expect(driver.ensure({ ...USER, name: 'root' })).rejects.toThrow(/not a service user/);
    await expect(driver.ensure({ ...USER, uid: 33 })).rejects.toThrow(/bad uid/);
    await expect(driver.ensure({ ...USER, home: '/srv/a:b' })).rejects.toThrow(/bad home/);
    await expect(driver.ensure({ ...USER, home: '/srv/../etc' })).rejects.toThrow(/bad home/);
    await expect(driver.remove({ name: 'www-data', uid: 33, gid: 33 })).rejects.toThrow(/not a service user/);
  });

  it('a refused command is a DaemonError with its exit code and message', async () => {
    const system = fakeSystem();
    const driver = new SystemServiceUserDriver(async (file, args) =>
      file === DEBIAN_COMMANDS.useradd
        ? { code: 4, stdout: '', stderr: 'useradd: UID 20012 is not unique' }
        : system.run(file, args),
    );
    const error = (await driver.ensure(USER).catch((thrown: unknown) => thrown)) as DaemonError;
    expect(error).toBeInstanceOf(DaemonError);
    expect(error.messageKey).toBe('hosting.error.service_user');
    expect(error.detail).toMatch(/exit 4 useradd: UID 20012 is not unique/);
  });

  it('removes the user, then its group if userdel left it; nothing when already gone; never another uid', async () => {
    const system = fakeSystem();
    const driver = new SystemServiceUserDriver(system.run);
    await driver.ensure(USER);
    system.calls.length = 0;
    await driver.remove(USER);
    expect(changes(system.calls)).toEqual([
      ['/usr/sbin/userdel', 'p247s12'],
      ['/usr/sbin/groupdel', 'p247s12'],
    ]);
    system.calls.length = 0;
    await driver.remove(USER);
    expect(changes(system.calls)).toEqual([]);
    system.passwd.set('p247s12', { uid: 20999, gid: 20999, home: '/x', shell: '/bin/sh' });
    await expect(driver.remove(USER)).rejects.toMatchObject({ detail: expect.stringMatching(/left alone/) });
    expect(system.passwd.has('p247s12')).toBe(true);
  });

  it('lists the accounts named like service users, and only those', async () => {
    const system = fakeSystem();
    system.passwd.set('p247s3', { uid: 20003, gid: 20003, home: '/h', shell: '/usr/sbin/nologin' });
    system.passwd.set('p247s1', { uid: 20001, gid: 20001, home: '/h', shell: '/usr/sbin/nologin' });
    system.passwd.set('www-data', { uid: 33, gid: 33, home: '/var/www', shell: '/usr/sbin/nologin' });
    expect(await new SystemServiceUserDriver(system.run).list()).toEqual([
      { name: 'p247s1', uid: 20001, gid: 20001 },
      { name: 'p247s3', uid: 20003, gid: 20003 },
    ]);
  });
});

describe('service users configuration', () => {
  it('is embedded with uids 20000..29999 unless set', () => {
    expect(loadConfig({}).serviceUsers).toEqual({ driver: 'embedded', uidMin: 20_000, uidMax: 29_999 });
    const config = loadConfig({
      PANEL_SERVICE_USERS_DRIVER: 'system',
      PANEL_SERVICE_UID_MIN: '30000',
      PANEL_SERVICE_UID_MAX: '30009',
    });
    expect(config.serviceUsers).toEqual({ driver: 'system', uidMin: 30_000, uidMax: 30_009 });
  });

  it('refuses another driver, a range below 1000 and a range upside down, naming each variable', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ PANEL_SERVICE_USERS_DRIVER: 'ldap' }).join('\n')).toMatch(/PANEL_SERVICE_USERS_DRIVER/);
    expect(problems({ PANEL_SERVICE_UID_MIN: '33' }).join('\n')).toMatch(/PANEL_SERVICE_UID_MIN/);
    expect(problems({ PANEL_SERVICE_UID_MIN: '30000', PANEL_SERVICE_UID_MAX: '29999' }).join('\n')).toMatch(
      /PANEL_SERVICE_UID_MAX.*must not be below uidMin \(30000\)/,
    );
  });
});

describe('service homes: owner, group and mode', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'p247-homes-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const me = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };

  it('creates a missing home 0750, reports drift on a dry run, repairs it, then finds nothing', async () => {
    const homes = new HomeOwners(root);
    const wanted = { ...me, mode: HOME_MODE };
    expect(await homes.repair('shop.test', wanted, { dryRun: true })).toEqual({
      home: path.join(root, 'shop.test'),
      problems: ['missing'],
      repaired: false,
    });
    await expect(lstat(path.join(root, 'shop.test'))).rejects.toThrow();
    expect(await homes.repair('shop.test', wanted, { dryRun: false })).toMatchObject({
      problems: ['missing'],
      repaired: true,
    });
    expect((await stat(path.join(root, 'shop.test'))).mode & 0o7777).toBe(0o750);
    expect(await homes.repair('shop.test', wanted, { dryRun: false })).toBeUndefined();
  });

  it('sets a wrong mode (and, as root, owner and group) through the folder itself', async () => {
    const homes = new HomeOwners(root);
    await mkdir(path.join(root, 'shop.test'), { mode: 0o777 });
    await writeFile(path.join(root, 'shop.test', 'index.html'), 'x');
    const wanted = process.getuid?.() === 0 ? { uid: 20012, gid: 33, mode: HOME_MODE } : { ...me, mode: HOME_MODE };
    const drift = await homes.repair('shop.test', wanted, { dryRun: false });
    expect(drift?.repaired).toBe(true);
    expect(drift?.problems).toContain('mode');
    const info = await stat(path.join(root, 'shop.test'));
    expect([info.uid, info.gid, info.mode & 0o7777]).toEqual([wanted.uid, wanted.gid, 0o750]);
    // what is inside stays the customer's
    expect((await stat(path.join(root, 'shop.test', 'index.html'))).uid).toBe(me.uid);
  });

  it('never follows a link in a home’s place, and refuses what is not a domain', async () => {
    const homes = new HomeOwners(root);
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'p247-elsewhere-'));
    try {
      await symlink(elsewhere, path.join(root, 'shop.test'));
      const before = (await stat(elsewhere)).mode;
      expect(await homes.repair('shop.test', { ...me, mode: HOME_MODE }, { dryRun: false })).toMatchObject({
        problems: ['not_a_folder'],
        repaired: false,
      });
      expect((await stat(elsewhere)).mode).toBe(before);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
    for (const bad of ['..', '../etc', 'a/b', '', 'UPPER.test', 'x']) {
      expect((await homes.repair(bad, { ...me, mode: HOME_MODE }, { dryRun: false }))?.problems).toEqual([
        'outside_root',
      ]);
    }
  });
});

describe('a PHP pool of the service’s own user', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'p247-pool-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const driver = () =>
    new EmbeddedWebDriver({
      configDir: path.join(dir, 'web'),
      templatesDir: DEFAULT_WEB_TEMPLATES,
      logDir: path.join(dir, 'logs'),
      httpListen: '80',
      httpsListen: '443',
      phpSockets: { '8.2': '/run/php/p247' },
      phpUser: 'www-data',
      phpGroup: 'www-data',
      nginxUser: 'www-data',
      acmeChallengeDir: '/var/lib/panel247/acme-challenges',
    });
  const service = (pool?: WebService['pool']): WebService => ({
    serviceId: 12,
    domain: 'shop.test',
    home: '/srv/www/shop.test',
    phpVersion: '8.2',
    ...(pool ? { pool } : {}),
    parking: false,
    sites: [{ subdomain: '', folder: '' }],
    redirections: [],
  });

  it('runs as that user and group, which own its PHP log and temporary folder; the log folder is its group’s', async () => {
    const asRoot = process.getuid?.() === 0;
    const pool = asRoot
      ? { user: 'p247s12', group: 'p247s12', uid: 20012, gid: 20012 }
      : { user: 'p247s12', group: 'p247s12', uid: process.getuid?.() ?? 1000, gid: process.getgid?.() ?? 1000 };
    await driver().apply(service(pool));
    const conf = await readFile(path.join(dir, 'web/live/12/php-fpm-8.2.conf'), 'utf8');
    expect(conf).toMatch(/^user = p247s12$/m);
    expect(conf).toMatch(/^group = p247s12$/m);
    expect(conf).toMatch(/^listen\.owner = www-data$/m);
    const logs = path.join(dir, 'logs/12');
    const [folder, log, tmp] = await Promise.all([
      stat(logs),
      stat(path.join(logs, 'php-error.log')),
      stat(path.join(logs, 'tmp')),
    ]);
    expect(folder.gid).toBe(pool.gid);
    expect(folder.mode & 0o777).toBe(0o750);
    expect([log.uid, log.gid, log.mode & 0o777]).toEqual([pool.uid, pool.gid, 0o640]);
    expect([tmp.uid, tmp.gid, tmp.mode & 0o777]).toEqual([pool.uid, pool.gid, 0o700]);
    // every server block follows a link only to a file of the link's owner
    const site = await readFile(path.join(dir, 'web/live/12/sites/shop.test.conf'), 'utf8');
    expect(site).toContain('disable_symlinks if_not_owner;');
  });

  it('without one, the default pool user; a pool name outside the allow-list is refused before anything is written', async () => {
    await driver().apply(service());
    expect(await readFile(path.join(dir, 'web/live/12/php-fpm-8.2.conf'), 'utf8')).toMatch(/^user = www-data$/m);
    for (const pool of [
      { user: 'root;', group: 'x', uid: 20012, gid: 20012 },
      { user: 'p247s12', group: 'a b', uid: 20012, gid: 20012 },
      { user: 'p247s12', group: 'p247s12', uid: 0, gid: 20012 },
    ]) {
      await expect(driver().apply(service(pool))).rejects.toBeInstanceOf(FieldErrors);
    }
  });
});
