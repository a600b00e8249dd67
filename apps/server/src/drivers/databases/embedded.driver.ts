import { Readable } from 'node:stream';
import { assertDatabaseName, type DatabaseDrift, type DatabasesDriver } from './databases.driver.ts';

/**
 * The default when no MariaDB is configured: a database exists only as the panel's row, so the
 * panel starts and every screen works on a machine without MariaDB. Nothing holds data, so the
 * usage is 0 and a dump is a short SQL file that creates the empty database.
 */
export class EmbeddedDatabasesDriver implements DatabasesDriver {
  readonly kind = 'embedded' as const;
  readonly live = false;

  constructor(private readonly clock: () => Date = () => new Date()) {}

  async create(): Promise<void> {}
  /** No server: nothing is there before the panel's row. */
  async ownership(): Promise<'absent' | 'ours' | 'foreign'> {
    return 'absent';
  }
  async changePassword(): Promise<void> {}
  async setExternalAccess(): Promise<void> {}
  async setLocked(): Promise<void> {}
  async drop(): Promise<void> {}

  /** No server, nothing to drift from. */
  async sync(): Promise<DatabaseDrift[]> {
    return [];
  }

  async usage(names: string[]): Promise<Map<string, number>> {
    return new Map(names.map((name) => [name, 0]));
  }

  async dump(name: string): Promise<Readable> {
    assertDatabaseName(name);
    const sql = [
      '-- Panel247 database dump',
      `-- Database: ${name}`,
      `-- Date: ${this.clock().toISOString()}`,
      '-- This panel keeps its databases without a MariaDB server (embedded driver): there are no tables yet.',
      '',
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
      '',
    ].join('\n');
    return Readable.from([Buffer.from(sql, 'utf8')]);
  }

  /** No server to ask: every backup makes its (tiny) dump again. */
  async fingerprint(): Promise<null> {
    return null;
  }

  /** No server: the dump has nowhere to go, and nothing is lost (there were no tables). */
  async load(_name: string, sql: Readable): Promise<void> {
    sql.resume();
  }

  async close(): Promise<void> {}
}
