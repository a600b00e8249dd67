import type { RowDataPacket } from 'mysql2/promise';
import type { SyncOptions } from '../sync-options.ts';
import { assertDatabaseName, assertDatabaseUser, type DatabaseDrift, type WantedDatabase } from './databases.driver.ts';
import { type Exec, grantPattern, grantTarget } from './mariadb-sql.ts';

/** MariaDB's own schemas: never a customer's database. */
const SYSTEM_SCHEMAS = new Set(['information_schema', 'mysql', 'performance_schema', 'sys']);

type Problem = DatabaseDrift['problem'];

/** What one database needs: each problem found and the statements that put it right. */
interface Finding {
  problem: Problem;
  repair: (() => Promise<unknown>)[];
}

async function column(exec: Exec, sql: string, values: unknown[]): Promise<string[]> {
  const rows = (await exec(sql, values)) as RowDataPacket[];
  return rows.map((row) => String(Object.values(row)[0]));
}

/**
 * Compares one database of the panel with the server: the database itself, a host entry for
 * each local host (plus '%' exactly while external access is on), the grant of each entry, and
 * the password (MariaDB keeps a hash; PASSWORD() hashes the panel's the same way to compare).
 */
async function inspect(exec: Exec, wanted: WantedDatabase, localHosts: string[], exists: boolean): Promise<Finding[]> {
  const name = assertDatabaseName(wanted.name);
  const user = assertDatabaseUser(wanted.user);
  const findings: Finding[] = [];
  const add = (problem: Problem, step: () => Promise<unknown>) => {
    const found = findings.find((finding) => finding.problem === problem);
    if (found) found.repair.push(step);
    else findings.push({ problem, repair: [step] });
  };
  if (!exists)
    add('missing', () =>
      exec(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`),
    );

  const hosts = await column(exec, 'SELECT Host FROM mysql.user WHERE User = ?', [user]);
  const granted = await column(exec, 'SELECT Host FROM mysql.db WHERE User = ? AND Db = ?', [user, grantPattern(name)]);
  const stale = await column(
    exec,
    'SELECT Host FROM mysql.user WHERE User = ? AND authentication_string <> PASSWORD(?)',
    [user, wanted.password],
  );
  const wantedHosts = [...localHosts, ...(wanted.externalAccess ? ['%'] : [])];
  for (const host of wantedHosts) {
    const problem: Problem = host === '%' ? 'external_access' : 'user';
    if (!hosts.includes(host)) {
      add(problem, () => exec('CREATE USER ?@? IDENTIFIED BY ?', [user, host, wanted.password]));
      add(problem, () => exec(`GRANT ALL PRIVILEGES ON ${grantTarget(name)} TO ?@?`, [user, host]));
      continue;
    }
    if (!granted.includes(host))
      add('grant', () => exec(`GRANT ALL PRIVILEGES ON ${grantTarget(name)} TO ?@?`, [user, host]));
    if (stale.includes(host))
      add('password', () => exec('ALTER USER ?@? IDENTIFIED BY ?', [user, host, wanted.password]));
  }
  if (!wanted.externalAccess && hosts.includes('%'))
    add('external_access', () => exec("DROP USER IF EXISTS ?@'%'", [user]));
  return findings;
}

/**
 * `databases sync` against MariaDB: every database of the panel checked and, unless `dryRun`,
 * repaired, each on its own (one that fails does not stop the others); databases the server has
 * and the panel does not are reported and left alone.
 */
export async function syncDatabases(
  exec: Exec,
  databases: WantedDatabase[],
  localHosts: string[],
  options: SyncOptions,
): Promise<DatabaseDrift[]> {
  const onServer = new Set(await column(exec, 'SELECT schema_name FROM information_schema.schemata', []));
  const drift: DatabaseDrift[] = [];
  for (const wanted of [...databases].sort((a, b) => a.name.localeCompare(b.name))) {
    for (const finding of await inspect(exec, wanted, localHosts, onServer.has(wanted.name))) {
      if (options.dryRun) {
        drift.push({ name: wanted.name, problem: finding.problem, repaired: false });
        continue;
      }
      try {
        for (const step of finding.repair) await step();
        drift.push({ name: wanted.name, problem: finding.problem, repaired: true });
      } catch (error) {
        drift.push({ name: wanted.name, problem: finding.problem, repaired: false, error: (error as Error).message });
      }
    }
  }
  const known = new Set(databases.map((database) => database.name));
  for (const name of [...onServer].sort()) {
    if (!SYSTEM_SCHEMAS.has(name) && !known.has(name)) drift.push({ name, problem: 'extra', repaired: false });
  }
  return drift;
}
