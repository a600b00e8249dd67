import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { DaemonError } from '../../errors.ts';
import type { SyncOptions } from '../sync-options.ts';
import {
  assertDatabaseName,
  assertDatabaseUser,
  type DatabaseDrift,
  DatabaseExistsError,
  type DatabaseFingerprint,
  type DatabasesDriver,
  type WantedDatabase,
} from './databases.driver.ts';
import { type Exec, grantPattern, grantTarget } from './mariadb-sql.ts';
import { syncDatabases } from './mariadb-sync.ts';

export interface MariaDbOptions {
  /** Admin connection: mysql://user:password@host:port, or mysql://user@localhost/?socket=/path. */
  url: string;
  /** Hosts a user always connects from (see config `databases.localHosts`). */
  localHosts: string[];
  /** mariadb-dump (or mysqldump), run with an argument array. */
  dumpCommand: string;
  /** mariadb (or mysql), fed a dump on stdin by `load`. */
  clientCommand?: string;
  connectTimeoutMs?: number;
}

interface AdminConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  socketPath?: string;
}

/** What the dump holds in memory before answering: enough to see an early refusal. */
const DUMP_HEAD_BYTES = 64 * 1024;

// MariaDB error numbers the driver tells apart.
const ER_DB_CREATE_EXISTS = 1007;
const ER_CANNOT_USER = 1396;

export function parseAdminUrl(url: string): AdminConnection {
  const parsed = new URL(url);
  const socketPath = parsed.searchParams.get('socket') ?? undefined;
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || 'localhost',
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    ...(socketPath ? { socketPath } : {}),
  };
}

/** An option-file value: double-quoted, with the escapes MariaDB's option-file reader undoes. */
function optionValue(value: string): string {
  const escaped = value
    .replaceAll('\\', '\\\\')
    .replaceAll('"', '\\"')
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r')
    .replaceAll('\t', '\\t');
  return `"${escaped}"`;
}

/**
 * The [client] option file the dump tool reads its admin credentials from, so the password never
 * shows on a command line (`ps`) or in the environment.
 */
export function clientOptionFile(admin: AdminConnection): string {
  const lines = ['[client]', `user=${optionValue(admin.user)}`];
  if (admin.password) lines.push(`password=${optionValue(admin.password)}`);
  if (admin.socketPath) lines.push(`socket=${optionValue(admin.socketPath)}`, 'protocol=socket');
  else lines.push(`host=${optionValue(admin.host)}`, `port=${admin.port}`, 'protocol=tcp');
  return `${lines.join('\n')}\n`;
}

/**
 * MariaDB through an admin connection (mysql2). Names are allow-listed and quoted; passwords and
 * user names only ever travel as escaped literals (mysql2's placeholders, with the session's
 * sql_mode kept free of NO_BACKSLASH_ESCAPES so the escaping means what it says). MariaDB's DDL is
 * not transactional, so every multi-step call undoes its own steps when a later one fails.
 */
export class MariaDbDriver implements DatabasesDriver {
  readonly kind = 'mariadb' as const;
  readonly live = true;
  private readonly admin: AdminConnection;
  /** Made at the first call: mysql2 is loaded only by a process that talks to MariaDB (not every node agent). */
  private pool: Promise<Pool> | undefined;

  constructor(private readonly options: MariaDbOptions) {
    this.admin = parseAdminUrl(options.url);
  }

  private connections(): Promise<Pool> {
    this.pool ??= import('mysql2/promise').then(({ default: mysql }) =>
      mysql.createPool({
        host: this.admin.host,
        port: this.admin.port,
        user: this.admin.user,
        password: this.admin.password,
        ...(this.admin.socketPath ? { socketPath: this.admin.socketPath } : {}),
        charset: 'utf8mb4',
        connectionLimit: 4,
        maxIdle: 1,
        idleTimeout: 30_000,
        connectTimeout: this.options.connectTimeoutMs ?? 5000,
        multipleStatements: false,
      }),
    );
    return this.pool;
  }

  /**
   * One connection for a whole call, its sql_mode first: mysql2 escapes literals with
   * backslashes, which NO_BACKSLASH_ESCAPES (a server or global default) would turn into text.
   */
  private async session<T>(work: (exec: Exec) => Promise<T>): Promise<T> {
    let connection: PoolConnection;
    try {
      connection = await (await this.connections()).getConnection();
    } catch (error) {
      throw this.translate(error, 'CONNECT');
    }
    const exec: Exec = async (sql, values = []) => {
      try {
        const [rows] = await connection.query(sql, values);
        return rows;
      } catch (error) {
        throw this.translate(error, sql);
      }
    };
    try {
      await exec("SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'NO_BACKSLASH_ESCAPES', '')");
      return await work(exec);
    } finally {
      connection.release();
    }
  }

  /** MariaDB's refusals and outages as the panel's errors; the SQL in the detail has no values. */
  private translate(error: unknown, sql: string): Error {
    if (error instanceof DaemonError || error instanceof DatabaseExistsError) return error;
    const failure = error as { errno?: number; code?: string; message?: string; fatal?: boolean };
    if (failure.errno === ER_DB_CREATE_EXISTS) return new DatabaseExistsError('database');
    if (failure.errno === ER_CANNOT_USER && /^CREATE USER/.test(sql)) return new DatabaseExistsError('user');
    const detail = `${sql.split(' ').slice(0, 3).join(' ')}: ${failure.code ?? ''} ${failure.message ?? String(error)}`;
    const down =
      failure.fatal === true || /^(ECONN|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|PROTOCOL_)/.test(failure.code ?? '');
    return new DaemonError(down ? 'ddbb.error.server_down' : 'ddbb.error.refused', detail.slice(0, 500));
  }

  /** Runs undo steps newest first; each is tried even when another fails (best effort). */
  private async undo(steps: (() => Promise<unknown>)[]): Promise<void> {
    for (const step of steps.reverse()) await step().catch(() => undefined);
  }

  private async hostsOf(exec: Exec, user: string): Promise<string[]> {
    const rows = (await exec('SELECT Host AS host FROM mysql.user WHERE User = ?', [user])) as RowDataPacket[];
    return rows.map((row) => String(row.host));
  }

  async create(database: WantedDatabase): Promise<void> {
    const name = assertDatabaseName(database.name);
    const user = assertDatabaseUser(database.user);
    const hosts = [...this.options.localHosts, ...(database.externalAccess ? ['%'] : [])];
    await this.session(async (exec) => {
      const undo: (() => Promise<unknown>)[] = [];
      try {
        await exec(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        undo.push(() => exec(`DROP DATABASE IF EXISTS \`${name}\``));
        for (const host of hosts) {
          await exec('CREATE USER ?@? IDENTIFIED BY ?', [user, host, database.password]);
          undo.push(() => exec('DROP USER IF EXISTS ?@?', [user, host]));
          await exec(`GRANT ALL PRIVILEGES ON ${grantTarget(name)} TO ?@?`, [user, host]);
        }
      } catch (error) {
        await this.undo(undo);
        throw error;
      }
    });
  }

  async ownership(database: { name: string; user: string }): Promise<'absent' | 'ours' | 'foreign'> {
    const name = assertDatabaseName(database.name);
    const user = assertDatabaseUser(database.user);
    return this.session(async (exec) => {
      const schemas = (await exec('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [
        name,
      ])) as unknown[];
      if (schemas.length === 0) return 'absent';
      const grants = (await exec('SELECT Host FROM mysql.db WHERE User = ? AND Db = ?', [
        user,
        grantPattern(name),
      ])) as unknown[];
      return grants.length > 0 ? 'ours' : 'foreign';
    });
  }

  async changePassword(userName: string, password: string, previous: string): Promise<void> {
    const user = assertDatabaseUser(userName);
    await this.session(async (exec) => {
      const hosts = await this.hostsOf(exec, user);
      if (hosts.length === 0) throw new DaemonError('ddbb.error.missing', `user ${user} is not on the server`);
      const done: string[] = [];
      try {
        // Every entry: with skip-name-resolve a TCP login from 127.0.0.1 matches '127.0.0.1' or '%'.
        for (const host of hosts) {
          await exec('ALTER USER ?@? IDENTIFIED BY ?', [user, host, password]);
          done.push(host);
        }
      } catch (error) {
        await this.undo(done.map((host) => () => exec('ALTER USER ?@? IDENTIFIED BY ?', [user, host, previous])));
        throw error;
      }
    });
  }

  async setExternalAccess(database: { name: string; user: string; password: string }, on: boolean): Promise<void> {
    const name = assertDatabaseName(database.name);
    const user = assertDatabaseUser(database.user);
    await this.session(async (exec) => {
      if (!on) {
        await exec("DROP USER IF EXISTS ?@'%'", [user]);
        return;
      }
      if ((await this.hostsOf(exec, user)).includes('%')) return;
      await exec("CREATE USER ?@'%' IDENTIFIED BY ?", [user, database.password]);
      try {
        await exec(`GRANT ALL PRIVILEGES ON ${grantTarget(name)} TO ?@'%'`, [user]);
      } catch (error) {
        await this.undo([() => exec("DROP USER IF EXISTS ?@'%'", [user])]);
        throw error;
      }
    });
  }

  async setLocked(userName: string, locked: boolean): Promise<void> {
    const user = assertDatabaseUser(userName);
    await this.session(async (exec) => {
      for (const host of await this.hostsOf(exec, user))
        await exec(`ALTER USER ?@? ACCOUNT ${locked ? 'LOCK' : 'UNLOCK'}`, [user, host]);
      if (!locked) return;
      // a lock refuses new logins only: the sessions already open are ended too
      const sessions = (await exec('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE USER = ?', [
        user,
      ])) as RowDataPacket[];
      for (const session of sessions) await exec('KILL CONNECTION ?', [Number(session.id)]).catch(() => undefined);
    });
  }

  async drop(database: { name: string; user: string }): Promise<void> {
    const name = assertDatabaseName(database.name);
    const user = assertDatabaseUser(database.user);
    await this.session(async (exec) => {
      // The users first, so nothing writes into a database on its way out.
      for (const host of await this.hostsOf(exec, user)) await exec('DROP USER IF EXISTS ?@?', [user, host]);
      await exec(`DROP DATABASE IF EXISTS \`${name}\``);
    });
  }

  sync(databases: WantedDatabase[], options: SyncOptions): Promise<DatabaseDrift[]> {
    return this.session((exec) => syncDatabases(exec, databases, this.options.localHosts, options));
  }

  async usage(names: string[]): Promise<Map<string, number>> {
    const sizes = new Map(names.map((name) => [assertDatabaseName(name), 0]));
    if (names.length === 0) return sizes;
    const rows = (await this.session((exec) =>
      exec(
        `SELECT table_schema AS name, COALESCE(SUM(data_length + index_length), 0) AS size
         FROM information_schema.tables WHERE table_schema IN (?) GROUP BY table_schema`,
        [names],
      ),
    )) as RowDataPacket[];
    for (const row of rows) sizes.set(String(row.name), Number(row.size));
    return sizes;
  }

  async dump(databaseName: string): Promise<Readable> {
    const name = assertDatabaseName(databaseName);
    const dir = await mkdtemp(path.join(tmpdir(), 'p247-dump-'));
    const optionsFile = path.join(dir, 'client.cnf');
    await writeFile(optionsFile, clientOptionFile(this.admin), { mode: 0o600 });
    const cleanup = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
    const args = [
      // must come first: the admin credentials, never on the command line
      `--defaults-file=${optionsFile}`,
      '--single-transaction',
      '--routines',
      '--triggers',
      '--events',
      '--hex-blob',
      '--default-character-set=utf8mb4',
      name,
    ];
    const child = spawn(this.options.dumpCommand, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = new PassThrough({ highWaterMark: 2 * DUMP_HEAD_BYTES });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString('utf8')}`.slice(-1000);
    });
    child.stdout.pipe(out, { end: false });
    // The downloader went away: stop the dump rather than let it run on.
    out.on('close', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    });

    let started = false;
    await new Promise<void>((resolve, reject) => {
      let seen = 0;
      const onData = (chunk: Buffer) => {
        seen += chunk.length;
        if (seen < DUMP_HEAD_BYTES) return;
        child.stdout.off('data', onData);
        started = true;
        resolve();
      };
      child.stdout.on('data', onData);
      child.once('error', (error) => {
        void cleanup();
        out.destroy();
        reject(new DaemonError('ddbb.error.dump', `${this.options.dumpCommand}: ${error.message}`));
      });
      child.once('close', (code, signal) => {
        void cleanup();
        if (code === 0) {
          out.end();
          resolve();
          return;
        }
        const failure = new DaemonError('ddbb.error.dump', `exit ${code ?? signal}: ${stderr.trim()}`);
        if (started) out.destroy(failure);
        else {
          out.destroy();
          reject(failure);
        }
      });
    });
    return out;
  }

  async fingerprint(databaseName: string): Promise<DatabaseFingerprint | null> {
    const name = assertDatabaseName(databaseName);
    return this.session(async (exec) => {
      const part = async (sql: string) => (await exec(sql, [name])) as RowDataPacket[];
      const tables = await part(
        `SELECT table_name AS n, table_type AS t, engine AS e, UNIX_TIMESTAMP(create_time) AS c, UNIX_TIMESTAMP(update_time) AS u
         FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name`,
      );
      // A base table without a change time (never written since the server started) is unknown.
      if (tables.some((table) => table.t === 'BASE TABLE' && table.u === null)) return null;
      const definitions = await Promise.all([
        part(
          'SELECT routine_name AS n, routine_type AS t, UNIX_TIMESTAMP(last_altered) AS a FROM information_schema.routines WHERE routine_schema = ? ORDER BY n, t',
        ),
        part(
          'SELECT trigger_name AS n, UNIX_TIMESTAMP(created) AS c, MD5(action_statement) AS d FROM information_schema.triggers WHERE trigger_schema = ? ORDER BY n',
        ),
        part(
          'SELECT table_name AS n, MD5(view_definition) AS d FROM information_schema.views WHERE table_schema = ? ORDER BY n',
        ),
        part(
          'SELECT event_name AS n, UNIX_TIMESTAMP(last_altered) AS a FROM information_schema.events WHERE event_schema = ? ORDER BY n',
        ),
      ]);
      const [clock] = (await exec('SELECT UNIX_TIMESTAMP() AS now')) as RowDataPacket[];
      const changes = tables.flatMap((table) => [Number(table.c ?? 0), Number(table.u ?? 0)]);
      return {
        value: JSON.stringify([tables, ...definitions]),
        newestChange: Math.max(0, ...changes, ...definitions[0].map((routine) => Number(routine.a ?? 0))),
        takenAt: Number(clock?.now ?? 0),
      };
    });
  }

  async load(databaseName: string, sql: Readable): Promise<void> {
    const name = assertDatabaseName(databaseName);
    const dir = await mkdtemp(path.join(tmpdir(), 'p247-load-'));
    const optionsFile = path.join(dir, 'client.cnf');
    await writeFile(optionsFile, clientOptionFile(this.admin), { mode: 0o600 });
    const command = this.options.clientCommand ?? 'mariadb';
    try {
      const child = spawn(command, [`--defaults-file=${optionsFile}`, '--default-character-set=utf8mb4', name], {
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = `${stderr}${chunk.toString('utf8')}`.slice(-1000);
      });
      const closed = new Promise<number | null>((resolve, reject) => {
        child.once('error', (error) => reject(new DaemonError('ddbb.error.load', `${command}: ${error.message}`)));
        child.once('close', resolve);
      });
      await pipeline(sql, child.stdin).catch(() => undefined);
      const code = await closed;
      if (code !== 0) throw new DaemonError('ddbb.error.load', `exit ${code}: ${stderr.trim()}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await (await pool)?.end();
  }
}
