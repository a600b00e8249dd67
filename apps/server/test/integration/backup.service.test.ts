import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BackupsListData } from '@panel247/contract/backups';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { DnsRecord } from '@panel247/contract/dns';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { nowSeconds } from '../../src/db/database.ts';
import { createDnsDriver } from '../../src/drivers/dns/create-dns-driver.ts';
import type { BackupService } from '../../src/modules/backups/backup.service.ts';
import { createBackupService } from '../../src/modules/backups/create-backup-service.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { adminOptions, mariadbReachable, randomNamePrefix, TEST_MARIADB_URL } from '../support/test-mariadb.ts';

const reachable = await mariadbReachable();

/**
 * A service backed up with Debian's restic — files, a mailbox, a real MariaDB database, the DNS
 * zone — then each part deleted and restored from the snapshot, and proved by reading it back:
 * the bytes of the files, the rows with SELECT, the message file, the zone's record.
 */
describe.skipIf(!reachable && process.env.CI !== 'true')('backups of a hosting service (restic, MariaDB)', () => {
  requireBinary('restic', 'restic');
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-backup-'));
  const domain = 'copia.test';
  const home = path.join(dir, 'www', domain);
  const mailbox = path.join(dir, 'mail', domain, 'info', 'Maildir', 'cur');
  let t: TestApp;
  let id: number;
  let cookie: string;
  let backups: BackupService;
  let close: () => Promise<void>;
  let database: HostedDatabase;

  const connect = () =>
    mysql.createConnection({
      host: '127.0.0.1',
      port: adminOptions().port,
      user: database.user,
      password: 'backup db password 1',
      database: database.bbdd,
    });
  const records = async () =>
    (await t.call<{ dnss: DnsRecord[] }>('GET', `service/${id}/dns/list/`, {}, { cookie })).body.data.dnss;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', {
      config: {
        dataDir: path.join(dir, 'data'),
        'hosting.root': path.join(dir, 'www'),
        'mail.root': path.join(dir, 'mail'),
        'databases.driver': 'mariadb',
        'databases.url': TEST_MARIADB_URL,
        'databases.namePrefix': randomNamePrefix(),
      },
    });
    const account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true } },
    });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    ({ backups, close } = createBackupService(
      t.database.db,
      t.config,
      createDnsDriver(t.config),
      TEST_SECRET_KEY,
      nowSeconds,
    ));
  });
  afterAll(async () => {
    await close?.();
    if (database) await t.call('POST', `service/${id}/ddbb/${database.id}/delete/`, {}, { cookie });
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up files, a mailbox, a database and the zone, and restores each after it was deleted', async () => {
    mkdirSync(path.join(home, 'site', 'img'), { recursive: true });
    writeFileSync(path.join(home, 'site', 'index.php'), '<?php echo "copia";');
    const logo = Buffer.from(Array.from({ length: 50_000 }, (_, i) => i % 251));
    writeFileSync(path.join(home, 'site', 'img', 'logo.png'), logo);
    // The home as its service has it: the hosting user's (restores run with its rights as root).
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', '33:33', home]);
    mkdirSync(mailbox, { recursive: true });
    writeFileSync(path.join(mailbox, '1700000000.M1P1.host:2,S'), 'Subject: kept\r\n\r\nhello\r\n');
    const sent = path.join(dir, 'mail', domain, 'info', 'Maildir', '.Sent', 'cur');
    mkdirSync(sent, { recursive: true });
    writeFileSync(path.join(sent, '1700000001.M2P1.host:2,S'), 'Subject: sent\r\n\r\nbye\r\n');
    const created = await t.call<{ ddbb: HostedDatabase }>(
      'POST',
      `service/${id}/ddbb/create/`,
      { password: 'backup db password 1' },
      { cookie },
    );
    database = created.body.data.ddbb;
    const connection = await connect();
    await connection.query('CREATE TABLE notes (id INT PRIMARY KEY, body TEXT)');
    await connection.query("INSERT INTO notes VALUES (1, 'primera'), (2, 'segunda')");
    await connection.end();
    await t.call('POST', `service/${id}/dns/create/`, { type: 'TXT', zona: 'copia', value: 'guardado' }, { cookie });

    const [run] = await backups.run(domain);
    expect(run?.reference).toBe(domain);
    // what the Backups view offers to restore: the mailbox and its folders besides the inbox
    const view = await t.call<BackupsListData>('GET', `service/${id}/backups/list/`, {}, { cookie });
    expect(view.body.data.snapshots[0]?.holds).toMatchObject({ mailboxes: ['info'], mailFolders: { info: ['.Sent'] } });
    const snapshot = run?.snapshot?.id.slice(0, 8) as string;
    expect((await backups.list(domain)).map((s) => s.id.slice(0, 8))).toEqual([snapshot]);
    // Unchanged since a dump taken over a second after its last change: not dumped again (the
    // server's change times count whole seconds, so a dump as recent as a change is made again).
    const dumpFile = path.join(dir, 'data', 'backups', 'staging', String(id), 'databases', `${database.bbdd}.sql`);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await backups.run(domain);
    const dumpedAt = statSync(dumpFile).mtimeMs;
    await backups.run(domain);
    expect(statSync(dumpFile).mtimeMs).toBe(dumpedAt);

    // everything deleted
    rmSync(path.join(home, 'site'), { recursive: true });
    rmSync(path.join(dir, 'mail', domain, 'info'), { recursive: true });
    const dropping = await connect();
    await dropping.query('DROP TABLE notes');
    await dropping.end();
    const txt = (await records()).find((record) => record.type === 'TXT' && record.zona === 'copia') as DnsRecord;
    await t.call('POST', `service/${id}/dns/${txt.id}/delete/`, {}, { cookie });

    // a folder restored into a new folder leaves the current files alone
    writeFileSync(path.join(home, 'current.txt'), 'now');
    await backups.restore(domain, snapshot, { kind: 'files', path: 'site', toFolder: 'from-backup' });
    expect(readFileSync(path.join(home, 'from-backup', 'site', 'img', 'logo.png')).equals(logo)).toBe(true);
    expect(existsSync(path.join(home, 'site'))).toBe(false);
    expect(readFileSync(path.join(home, 'current.txt'), 'utf8')).toBe('now');
    // and to its place
    await backups.restore(domain, snapshot, { kind: 'files', path: 'site', toFolder: undefined });
    expect(readFileSync(path.join(home, 'site', 'index.php'), 'utf8')).toBe('<?php echo "copia";');
    expect(readFileSync(path.join(home, 'current.txt'), 'utf8')).toBe('now');

    // one folder of the mailbox alone, then all of it
    await backups.restore(domain, snapshot, { kind: 'mailbox', localPart: 'info', folder: '.Sent' });
    expect(readFileSync(path.join(sent, '1700000001.M2P1.host:2,S'), 'utf8')).toContain('Subject: sent');
    expect(existsSync(mailbox)).toBe(false);
    await backups.restore(domain, snapshot, { kind: 'mailbox', localPart: 'info' });
    expect(readFileSync(path.join(mailbox, '1700000000.M1P1.host:2,S'), 'utf8')).toContain('Subject: kept');

    // into a new database: the dropped table is there, the database it came from stays as it is
    await backups.restore(domain, snapshot, { kind: 'database', name: database.bbdd, intoNew: true });
    const listed = await t.call<{ ddbb: HostedDatabase[] }>('GET', `service/${id}/ddbb/list/`, {}, { cookie });
    const fresh = listed.body.data.ddbb.find((d) => d.bbdd !== database.bbdd) as HostedDatabase;
    const shown = await t.call<{ ddbb: HostedDatabase }>('GET', `service/${id}/ddbb/${fresh.id}/`, {}, { cookie });
    const copy = await mysql.createConnection({
      host: '127.0.0.1',
      port: adminOptions().port,
      user: fresh.user,
      password: shown.body.data.ddbb.password,
      database: fresh.bbdd,
    });
    const [copied] = await copy.query('SELECT COUNT(*) AS n FROM notes');
    await copy.end();
    expect(copied).toEqual([{ n: 2 }]);
    const untouched = await connect();
    await expect(untouched.query('SELECT 1 FROM notes')).rejects.toMatchObject({ errno: 1146 });
    await untouched.end();
    await t.call('POST', `service/${id}/ddbb/${fresh.id}/delete/`, {}, { cookie });

    await backups.restore(domain, snapshot, { kind: 'database', name: database.bbdd });
    const reading = await connect();
    const [rows] = await reading.query('SELECT id, body FROM notes ORDER BY id');
    await reading.end();
    expect(rows).toEqual([
      { id: 1, body: 'primera' },
      { id: 2, body: 'segunda' },
    ]);

    await backups.restore(domain, snapshot, { kind: 'dns' });
    expect((await records()).some((record) => record.type === 'TXT' && record.value === 'guardado')).toBe(true);

    // a change: the next backup dumps the database again
    const writer = await connect();
    await writer.query("INSERT INTO notes VALUES (3, 'tercera')");
    await writer.end();
    await backups.run(domain);
    expect(statSync(dumpFile).mtimeMs).not.toBe(dumpedAt);
    expect(readFileSync(dumpFile, 'utf8')).toContain('tercera');

    // another service's snapshot id, or a made-up one, opens nothing
    await expect(backups.restore(domain, 'deadbeef', { kind: 'dns' })).rejects.toThrow();
    expect(await backups.check()).toMatch(/no errors were found/);
  });
});
