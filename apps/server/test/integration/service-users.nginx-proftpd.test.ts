import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CSRF_HEADER } from '@panel247/contract/constants';
import type { FtpAccount } from '@panel247/contract/ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { type ProFtpd, startProFtpd } from '../../../../scripts/daemons/proftpd.ts';
import { startWebServers, type WebServers } from '../../../../scripts/daemons/web.ts';
import { ConfinedWorkers } from '../../src/drivers/files/confined/confined-workers.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { createServiceUsers } from '../../src/modules/hosting/service-users.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { buildAccount, resourceIdsAfter } from '../support/factories.ts';
import { nginxPanelConfig } from '../support/nginx-config.ts';
import { runPanel } from '../support/panel-cli.ts';
import {
  freeUidRange,
  nestedSettings as nested,
  type Passwd,
  passwd,
  removeSystemUsers,
} from '../support/system-users.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const run = promisify(execFile);

/** Resource ids (so user names) and uids far from any other run on this machine. */
const BASE_ID = 100_000 + Math.floor(Math.random() * 800_000);

/** Every file below a folder with its SHA-256 (links by their text), to prove nothing changed. */
function checksums(top: string): Record<string, string> {
  const sums: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink()) sums[full] = `link:${readlinkSync(full)}`;
      else if (entry.isFile()) sums[full] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(top);
  return sums;
}

/**
 * Isolation with real system users (issue 33): two hosting services A and B made with the system
 * users driver, served by a real nginx + PHP-FPM and a real ProFTPD. Each gets its own account
 * (`getent`); A's PHP runs as A and cannot read B's home nor the panel's data folder (the kernel
 * refuses, not only open_basedir); A's FTP uploads are A's; a link A plants to B's file is not
 * served (disable_symlinks); `panel sync` gives a service made before its user and repairs a home
 * changed by hand. Every account it made is removed at the end.
 */
describe('each hosting service runs as its own system user (nginx, PHP-FPM, ProFTPD)', () => {
  let database: TestDatabase;
  let servers: WebServers;
  let ftpd: ProFtpd;
  let t: TestApp;
  let cookie: string;
  let dataDir: string;
  let ftpDir: string;
  let homes: string;
  let configFile: string;
  let range: { min: number; max: number };
  const ACCOUNT = `iso${BASE_ID}.test`;
  const A = { domain: `a${BASE_ID}.test`, id: BASE_ID + 1, user: `p247s${BASE_ID + 1}` };
  const B = { domain: `b${BASE_ID}.test`, id: BASE_ID + 2, user: `p247s${BASE_ID + 2}` };
  const C = { domain: `c${BASE_ID}.test`, id: BASE_ID + 3, user: `p247s${BASE_ID + 3}` };
  const home = (service: { domain: string }) => path.join(homes, service.domain);
  let settings: Record<string, unknown>;

  const cli = (...args: string[]) => runPanel({ PANEL_CONFIG_FILE: configFile }, args);
  const cliJson = async <T>(...args: string[]): Promise<T> => {
    const answer = await cli(...args, '--json');
    if (answer.code !== 0) throw new Error(`panel ${args.join(' ')}: ${answer.code}\n${answer.stdout}${answer.stderr}`);
    return JSON.parse(answer.stdout) as T;
  };

  const request = (host: string, urlPath: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = http.request(
        { host: '127.0.0.1', port: servers.httpPort, path: urlPath, agent: false, headers: { host } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  /** nginx and PHP-FPM reload in the background: asked again until the answer is the expected one. */
  const eventually = async (host: string, urlPath: string, expected: (answer: { status: number }) => boolean) => {
    const until = Date.now() + 15_000;
    let last: { status: number; body: string } | Error = new Error('no answer');
    while (Date.now() < until) {
      last = await request(host, urlPath).catch((error: Error) => error);
      if (!(last instanceof Error) && expected(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `${host}${urlPath}: ${last instanceof Error ? last.message : JSON.stringify(last)}\n${servers.logs()}`,
    );
  };

  /** A file a customer put in a home: its content, owned by the service's user. */
  const plant = (file: string, content: string, owner: Passwd) => {
    writeFileSync(file, content);
    chmodSync(file, 0o644);
    chownSync(file, owner.uid, owner.gid);
  };

  beforeAll(async () => {
    if (process.getuid?.() !== 0) throw new Error('this test makes system users: run it as root');
    for (const binary of ['useradd', 'userdel', 'groupadd', 'groupdel', 'getent']) requireBinary(binary, 'passwd');
    range = await freeUidRange();
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-isodata-'));
    // the panel's data: nobody's business but the panel's
    chmodSync(dataDir, 0o700);
    ftpDir = mkdtempSync(path.join(tmpdir(), 'p247-isoftp-'));
    chmodSync(ftpDir, 0o755);
    const usersFile = path.join(ftpDir, 'ftp-users.sqlite');
    database = await createTestDatabase('sqlite', { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    servers = await startWebServers();
    homes = path.join(servers.dir, 'homes');
    mkdirSync(homes, { recursive: true, mode: 0o755 });
    chmodSync(homes, 0o755);
    settings = {
      ...nginxPanelConfig(servers, homes),
      dataDir,
      secretKey: TEST_SECRET_KEY.toString('hex'),
      logLevel: 'silent',
      'hosting.ftpDriver': 'proftpd',
      'hosting.ftpUsersFile': usersFile,
      'serviceUsers.driver': 'system',
      'serviceUsers.uidMin': range.min,
      'serviceUsers.uidMax': range.max,
    };
    configFile = path.join(dataDir, 'panel247.json');
    writeFileSync(configFile, JSON.stringify(nested(settings)));
    t = await buildTestApp('sqlite', { database, config: settings });
    const account = await buildAccount(database.db, { domainName: ACCOUNT, resources: {} });
    await resourceIdsAfter(database.db, account.accountId, BASE_ID);
    ftpd = await startProFtpd({ kind: 'sqlite', file: usersFile });
    // A and B as the provider makes them: `resource add --service` gives each its user and home
    for (const service of [A, B]) {
      const made = await cliJson<{ id: number }>(
        'resource',
        'add',
        '--domain',
        ACCOUNT,
        '--reference',
        service.domain,
        '--service',
        '--grant-user',
        account.username,
      );
      expect(made.id).toBe(service.id);
    }
    cookie = await t.login(ACCOUNT, account.username, account.password);
  });

  afterAll(async () => {
    await t?.close();
    await ftpd?.stop();
    await servers?.stop();
    await database?.destroy();
    // the accounts this test made, whatever happened to it
    await removeSystemUsers([A.user, B.user, C.user]);
    for (const folder of [dataDir, ftpDir]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('gives each service a system user and group of its own, and a home only it and the web server enter', async () => {
    const a = await passwd(A.user);
    const b = await passwd(B.user);
    expect(a).toEqual({ name: A.user, uid: a?.uid, gid: a?.uid, home: home(A), shell: '/usr/sbin/nologin' });
    expect(b).toEqual({ name: B.user, uid: b?.uid, gid: b?.uid, home: home(B), shell: '/usr/sbin/nologin' });
    for (const uid of [a?.uid ?? 0, b?.uid ?? 0]) expect(uid).toBeGreaterThanOrEqual(range.min);
    expect(a?.uid).not.toBe(b?.uid);
    const group = await run('getent', ['group', A.user]);
    expect(group.stdout.trim()).toBe(`${A.user}:x:${a?.gid}:`);
    for (const [service, user] of [
      [A, a],
      [B, b],
    ] as const) {
      const info = statSync(home(service));
      expect([info.uid, info.gid, info.mode & 0o7777]).toEqual([user?.uid, 33, 0o750]);
    }
  });

  it('`panel sync` serves both: each PHP pool runs as its service’s user, which cannot read the other’s home', async () => {
    const a = (await passwd(A.user)) as Passwd;
    const b = (await passwd(B.user)) as Passwd;
    const report = await cliJson<{ users: { users: unknown[] }; web: { services: { serviceId: number }[] } }>('sync');
    expect(report.users.users).toEqual([]);
    expect(report.web.services.map((entry) => entry.serviceId).sort()).toEqual([A.id, B.id]);
    const pool = readFileSync(
      path.join(servers.driverOptions.configDir, 'live', String(A.id), 'php-fpm-8.2.conf'),
      'utf8',
    );
    expect(pool).toMatch(new RegExp(`^user = ${A.user}$`, 'm'));
    expect(pool).toMatch(new RegExp(`^group = ${A.user}$`, 'm'));

    const secret = path.join(home(B), 'secret.txt');
    plant(secret, 'B only', b);
    plant(path.join(home(A), 'whoami.php'), '<?php echo posix_geteuid(), " ", posix_getegid();', a);
    plant(
      path.join(home(A), 'steal.php'),
      `<?php
foreach (['b' => ${JSON.stringify(secret)}, 'data' => ${JSON.stringify(path.join(dataDir, 'panel.sqlite'))}] as $k => $f) {
  $h = @fopen($f, 'r');
  echo $k, '=', $h === false ? 'refused' : 'READ:' . fread($h, 64), "\\n";
}`,
      a,
    );
    plant(
      path.join(home(A), 'write.php'),
      '<?php echo file_put_contents(__DIR__ . "/from-php.txt", "php") ? "written" : "refused";',
      a,
    );

    const whoami = await eventually(A.domain, '/whoami.php', (answer) => answer.status === 200);
    expect(whoami.body).toBe(`${a.uid} ${a.gid}`);
    const stolen = await eventually(A.domain, '/steal.php', (answer) => answer.status === 200);
    expect(stolen.body).toBe('b=refused\ndata=refused\n');
    expect((await eventually(A.domain, '/write.php', (answer) => answer.status === 200)).body).toBe('written');
    expect(statSync(path.join(home(A), 'from-php.txt'))).toMatchObject({ uid: a.uid, gid: a.gid });
    // B's own site still serves its file to the web (nginx reads it through the web server's group)
    plant(path.join(home(B), 'index.html'), 'B site', b);
    expect((await eventually(B.domain, '/index.html', (answer) => answer.status === 200)).body).toBe('B site');
  });

  it('the kernel itself refuses A’s user (PHP without open_basedir): B’s home and the panel’s data folder', async () => {
    const a = (await passwd(A.user)) as Passwd;
    const php = requireBinary('php8.2', 'php8.2-cli');
    const open = async (file: string) => {
      const code = `$h = @fopen(${JSON.stringify(file)}, 'r'); echo $h === false ? error_get_last()['message'] : 'READ';`;
      return (await run(php, ['-n', '-r', code], { uid: a.uid, gid: a.gid, cwd: '/' })).stdout;
    };
    expect(await open(path.join(home(B), 'secret.txt'))).toMatch(/Permission denied/);
    expect(await open(path.join(dataDir, 'panel.sqlite'))).toMatch(/Permission denied/);
    expect(await open(path.join(home(A), 'whoami.php'))).toBe('READ');
  });

  it('an FTP upload by A’s account lands owned by A’s user, in its home and in a folder of its own', async () => {
    const a = (await passwd(A.user)) as Passwd;
    for (const [ftpUser, folder] of [
      ['web', ''],
      ['sub', 'uploads/today'],
    ] as const) {
      const { body } = await t.call<{ ftp: FtpAccount }>(
        'POST',
        `service/${A.id}/ftp/create/`,
        { ftpUser, password: 'ftp password 1', folder },
        { cookie },
      );
      expect(body.system.errors).toEqual([]);
      const local = path.join(tmpdir(), `iso-${BASE_ID}-${ftpUser}.txt`);
      writeFileSync(local, `over FTP as ${ftpUser}`);
      const upload = await ftpd.curl(`${ftpUser}@${A.domain}`, 'ftp password 1', ['-T', local], '/');
      rmSync(local);
      expect(upload.code).toBe(0);
      const landed = path.join(home(A), folder, path.basename(local));
      expect(readFileSync(landed, 'utf8')).toBe(`over FTP as ${ftpUser}`);
      expect(statSync(landed)).toMatchObject({ uid: a.uid, gid: a.gid });
    }
    // the account's folder was made by A's worker: A's user and group (nginx reads it as any
    // other folder of the home, the home's group being the web server's); the home kept its owner,
    // group and mode
    expect(statSync(path.join(home(A), 'uploads/today'))).toMatchObject({ uid: a.uid, gid: a.gid });
    const info = statSync(home(A));
    expect([info.uid, info.gid, info.mode & 0o7777]).toEqual([a.uid, 33, 0o750]);
  });

  it('A’s file manager (list, read, save, delete, chmod, extract, zip, upload) reaches neither B’s home nor the panel’s data through links and swaps; the kernel refuses A’s worker what the code would never ask', async () => {
    const a = (await passwd(A.user)) as Passwd;
    const b = (await passwd(B.user)) as Passwd;
    plant(path.join(home(B), 'index.php'), '<?php echo "B";', b);
    // The panel's own files there change as it works (its database, the uploads it stages): what
    // must not change is everything else, a key file standing for them.
    writeFileSync(path.join(dataDir, 'secret.key'), 'the panel key', { mode: 0o600 });
    const panelFiles = () =>
      Object.fromEntries(
        Object.entries(checksums(dataDir)).filter(([file]) => !/panel\.sqlite|[/]uploads[/]/.test(file)),
      );
    const before = { b: checksums(home(B)), panel: panelFiles() };
    const files = (call: string, params: Record<string, string>, method: 'GET' | 'POST' = 'POST') =>
      t.call(method, `service/${A.id}/files/${call}/`, params, { cookie });
    // Links as A's FTP or PHP would plant them: to B's home, to the panel's data, to /etc.
    for (const [name, target] of [
      ['to-b', home(B)],
      ['to-panel', dataDir],
      ['to-etc', '/etc'],
    ] as const) {
      symlinkSync(target, path.join(home(A), name));
      lchownSync(path.join(home(A), name), a.uid, a.gid);
    }
    for (const folder of ['to-b', 'to-panel', 'to-etc']) {
      expect((await files('list', { path: folder }, 'GET')).body.system.valid, folder).toBe(false);
      expect((await files('mkdir', { path: folder, name: 'x' })).body.system.valid).toBe(false);
    }
    for (const [file, content] of [
      ['to-b/index.php', 'owned'],
      ['to-panel/secret.key', 'x'],
      ['to-etc/shadow', 'x'],
    ] as const) {
      expect((await files('read', { path: file }, 'GET')).body.system.valid, file).toBe(false);
      expect((await files('save', { path: file, content })).body.system.valid, file).toBe(false);
      expect((await files('delete', { path: file })).body.system.valid, file).toBe(false);
      expect((await files('chmod', { path: file, mode: '777' })).body.system.valid, file).toBe(false);
      expect((await files('copy', { path: file, to: '' })).body.system.valid, file).toBe(false);
    }
    plant(path.join(home(B), 'site.zip'), 'PK', b);
    expect((await files('extract', { path: 'to-b/site.zip' })).body.system.valid).toBe(false);
    rmSync(path.join(home(B), 'site.zip'));
    const zip = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${A.id}/files/zip/?path=`,
      headers: { cookie },
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.includes(Buffer.from('index.php'))).toBe(false);
    expect(zip.rawPayload.includes(Buffer.from('secret.key'))).toBe(false);

    // An upload whose folder becomes a link to B's home between its first and its last chunk.
    mkdirSync(path.join(home(A), 'incoming'));
    chownSync(path.join(home(A), 'incoming'), a.uid, a.gid);
    const put = (offset: number, bytes: string) =>
      t.app.inject({
        method: 'PUT',
        url: `${t.config.basePath}service/${A.id}/files/upload/?path=incoming&name=index.php&size=8&offset=${offset}`,
        headers: { [CSRF_HEADER]: '1', cookie, 'content-type': 'application/octet-stream' },
        payload: Buffer.from(bytes),
      });
    expect((await put(0, 'owne')).json().data).toEqual({ received: 4, done: false });
    rmSync(path.join(home(A), 'incoming'), { recursive: true });
    symlinkSync(home(B), path.join(home(A), 'incoming'));
    lchownSync(path.join(home(A), 'incoming'), a.uid, a.gid);
    expect((await put(4, 'd!!!')).json().system.valid).toBe(false);

    // What the panel's own checks would never send: a worker of A's asked for B's home and the
    // panel's data directly. The kernel says no.
    const workers = new ConfinedWorkers();
    try {
      const owner = { uid: a.uid, gid: a.gid };
      for (const [base, file] of [
        [home(B), 'index.php'],
        [dataDir, 'panel.sqlite'],
        ['/etc', 'shadow'],
      ] as const) {
        await expect(
          workers.call({ op: 'read', base, folder: [], args: { path: file }, owner }),
          base,
        ).rejects.toMatchObject({ messageKey: 'files.error.denied' });
      }
    } finally {
      await workers.close();
    }
    expect(checksums(home(B))).toEqual(before.b);
    expect(panelFiles()).toEqual(before.panel);
    for (const name of ['to-b', 'to-panel', 'to-etc', 'incoming']) rmSync(path.join(home(A), name));
  });

  it('a link A plants to B’s file is not served (disable_symlinks if_not_owner); a link to A’s own file is', async () => {
    const a = (await passwd(A.user)) as Passwd;
    plant(path.join(home(A), 'own.txt'), 'A file', a);
    for (const [name, target] of [
      ['leak.txt', path.join(home(B), 'secret.txt')],
      ['mine.txt', path.join(home(A), 'own.txt')],
    ] as const) {
      symlinkSync(target, path.join(home(A), name));
      lchownSync(path.join(home(A), name), a.uid, a.gid);
    }
    expect((await eventually(A.domain, '/mine.txt', (answer) => answer.status === 200)).body).toBe('A file');
    const leak = await request(A.domain, '/leak.txt');
    expect(leak.status).toBe(403);
    expect(leak.body).not.toContain('B only');
  });

  it('`panel sync` gives a service made before its user (the migration step) and puts a home changed by hand right', async () => {
    // C made without the hook, as every service was before system users
    const admin = new AdminService(database.db, new LocalEventBus(), () => 1);
    expect(await admin.ensureResource(ACCOUNT, { reference: C.domain, hasService: true })).toBe(C.id);
    expect(await passwd(C.user)).toBeUndefined();
    const dry = await cliJson<{ users: { serviceId: number | null; drift: string; problems: string[] }[] }>(
      'users',
      'sync',
      '--dry-run',
    );
    expect(dry.users).toEqual([
      expect.objectContaining({ serviceId: C.id, drift: 'user', problems: ['no_row', 'no_account'], repaired: false }),
    ]);
    expect(await passwd(C.user)).toBeUndefined();
    const done = await cliJson<{ users: { users: unknown[] } }>('sync');
    expect(done.users.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ serviceId: C.id, drift: 'user', repaired: true })]),
    );
    const c = (await passwd(C.user)) as Passwd;
    expect(c.uid).toBeGreaterThanOrEqual(range.min);
    expect(statSync(home(C))).toMatchObject({ uid: c.uid, gid: 33 });
    expect(
      readFileSync(path.join(servers.driverOptions.configDir, 'live', String(C.id), 'php-fpm-8.2.conf'), 'utf8'),
    ).toMatch(new RegExp(`^user = ${C.user}$`, 'm'));

    // A's home given to root and opened to everyone by hand: reported, then repaired
    const a = (await passwd(A.user)) as Passwd;
    chownSync(home(A), 0, 0);
    chmodSync(home(A), 0o755);
    const found = await cliJson<{ users: { serviceId: number; drift: string; problems: string[] }[] }>(
      'users',
      'sync',
      '--dry-run',
    );
    expect(found.users).toEqual([
      expect.objectContaining({
        serviceId: A.id,
        drift: 'home',
        problems: ['owner', 'group', 'mode'],
        repaired: false,
      }),
    ]);
    await cliJson('users', 'sync');
    const info = statSync(home(A));
    expect([info.uid, info.gid, info.mode & 0o7777]).toEqual([a.uid, 33, 0o750]);
    // and then every sync finds nothing: users, FTP homes, web
    const clean = await cliJson<{
      users: { users: unknown[] };
      ftp: { homes: unknown[] };
      web: { services: unknown[] };
    }>('sync', '--dry-run');
    expect(clean.users.users).toEqual([]);
    expect(clean.ftp.homes).toEqual([]);
    expect(clean.web.services).toEqual([]);
    expect((await eventually(A.domain, '/whoami.php', (answer) => answer.status === 200)).body).toBe(
      `${a.uid} ${a.gid}`,
    );
  });

  it('removing a service’s user takes its system account and group away', async () => {
    const users = createServiceUsers(database.db, t.config, () => 1);
    await users.remove(C.id);
    expect(await passwd(C.user)).toBeUndefined();
    await expect(run('getent', ['group', C.user])).rejects.toMatchObject({ code: 2 });
    expect(await users.ownerOf(C.id)).toEqual({ uid: 33, gid: 33 });
  });
});
