/**
 * npm run bench:backup — a hosting service of BENCH_BACKUP_MB MiB (1024) in BENCH_BACKUP_FILES
 * files (10,000) plus a database of BENCH_BACKUP_DB_MB MiB (100) on a private MariaDB, backed up
 * through the panel (dump, restic) twice, against `tar czf` of the same files and dump in the same
 * run; then one file restored. Figures: the second (unchanged) backup against the first (goal
 * ≤ 10 %), the first against tar, and the one-file restore. A benchmark never fails: it prints and
 * exits 0. Smaller runs: BENCH_BACKUP_MB=100 BENCH_BACKUP_FILES=1000 BENCH_BACKUP_DB_MB=10.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { startPrivateMariaDb } from '../../../scripts/daemons/mariadb.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, nowSeconds, openDatabase } from '../src/db/database.ts';
import { createDnsDriver } from '../src/drivers/dns/create-dns-driver.ts';
import { AdminService, allKeys } from '../src/modules/admin/admin.service.ts';
import { createBackupService } from '../src/modules/backups/create-backup-service.ts';
import { BrandService } from '../src/modules/brand/brand.service.ts';
import { createDatabasesService } from '../src/modules/databases/create-databases-service.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';

const run = promisify(execFile);
const TOTAL_MB = Number(process.env.BENCH_BACKUP_MB ?? 1024);
const FILES = Number(process.env.BENCH_BACKUP_FILES ?? 10_000);
const DB_MB = Number(process.env.BENCH_BACKUP_DB_MB ?? 100);
const DOMAIN = 'bench-backup.test';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/** Files of mixed sizes summing to TOTAL_MB, half of each text-like (compressible), half random. */
function makeFiles(home: string) {
  const size = Math.floor((TOTAL_MB * 1024 * 1024) / FILES);
  const text = Buffer.from('<?php echo "Panel247 bench line"; ?>\n'.repeat(Math.ceil(size / 40))).subarray(0, size / 2);
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(home, `folder-${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `file-${i}.php`), Buffer.concat([text, randomBytes(size - text.length)]));
  }
}

async function fillDatabase(url: string, user: string, password: string, database: string) {
  const connection = await mysql.createConnection({ uri: url, user, password, database });
  await connection.query('CREATE TABLE rows_bench (id INT AUTO_INCREMENT PRIMARY KEY, body TEXT) ENGINE=InnoDB');
  const row = randomBytes(600).toString('base64');
  const batch = Array.from({ length: 1000 }, () => `('${row}')`).join(',');
  const batches = Math.ceil((DB_MB * 1024 * 1024) / (row.length * 1000));
  for (let i = 0; i < batches; i++) await connection.query(`INSERT INTO rows_bench (body) VALUES ${batch}`);
  await connection.end();
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-bench-backup-'));
  const mariadb = await startPrivateMariaDb();
  try {
    const config = loadConfig(
      {},
      {
        dataDir: path.join(dir, 'data'),
        logLevel: 'silent',
        'captcha.provider': 'none',
        'hosting.root': path.join(dir, 'www'),
        'mail.root': path.join(dir, 'mail'),
        'databases.driver': 'mariadb',
        'databases.url': mariadb.adminUrl,
        'databases.maxPerService': 5,
        'backups.quotaMb': 1_000_000,
      },
    );
    const { db } = openDatabase({ sqliteFile: path.join(dir, 'panel.sqlite') });
    await migrateToLatest(db);
    const admin = new AdminService(db, new LocalEventBus(), nowSeconds);
    await admin.ensureBrand({ slug: 'bench', company: 'Bench', isDefault: true });
    await admin.ensureAccount('bench.test', 'bench');
    await admin.ensureUser('bench.test', 'admin', 'bench password 1');
    const serviceId = await admin.ensureResource('bench.test', {
      reference: DOMAIN,
      hasService: true,
      serviceExpireTs: nowSeconds() + 86400,
    });
    await admin.grant('bench.test', 'admin', DOMAIN, allKeys('write'));

    const home = path.join(dir, 'www', DOMAIN);
    process.stdout.write(`making ${FILES} files (${TOTAL_MB} MiB) and a ${DB_MB} MiB database…\n`);
    makeFiles(home);
    const databases = createDatabasesService(db, config, new BrandService(db), Buffer.alloc(32, 1), nowSeconds);
    const made = await databases.provision(serviceId, DOMAIN, { password: 'bench database 1' });
    await fillDatabase(`mysql://127.0.0.1:${mariadb.port}`, made.name, 'bench database 1', made.name);

    // The baseline: the same files and the same dump, in one tar.gz
    const dump = path.join(dir, 'dump.sql');
    const [database] = await databases.forBackup(serviceId);
    await pipeline(await (database as { dump: () => Promise<Readable> }).dump(), createWriteStream(dump));
    const [, tar] = await timed(() => run('tar', ['czf', path.join(dir, 'baseline.tar.gz'), home, dump]));

    const { backups, close } = createBackupService(
      db,
      config,
      createDnsDriver(config),
      Buffer.alloc(32, 1),
      nowSeconds,
    );
    const target = await backups.serviceById(serviceId);
    await backups.prepareRepository(target);
    const [first, firstMs] = await timed(() => backups.backupService(target));
    const [, secondMs] = await timed(() => backups.backupService(target));
    rmSync(path.join(home, 'folder-0', 'file-0.php'));
    const [, restoreMs] = await timed(() =>
      backups.restorePart(target, first.id, { kind: 'files', path: 'folder-0/file-0.php', toFolder: undefined }),
    );
    const restored = readFileSync(path.join(home, 'folder-0', 'file-0.php')).length > 0;
    await close();
    await databases.close();

    process.stdout.write(
      [
        '',
        `service: ${FILES} files, ${TOTAL_MB} MiB, database ${DB_MB} MiB`,
        `tar czf (baseline)         ${seconds(tar)}`,
        `first backup               ${seconds(firstMs)}   ${(firstMs / tar).toFixed(2)} × tar`,
        `second backup (unchanged)  ${seconds(secondMs)}   ${((secondMs / firstMs) * 100).toFixed(1)} % of the first (goal ≤ 10 %)`,
        `one file restored          ${seconds(restoreMs)}   ${restored ? 'byte count checked' : 'NOT RESTORED'}`,
        '',
      ].join('\n'),
    );
  } finally {
    await mariadb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:backup could not run: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 0;
});
