import { assertDatabaseName } from './databases.driver.ts';

/** One statement on the driver's session connection; values travel as mysql2 placeholders. */
export type Exec = (sql: string, values?: unknown[]) => Promise<unknown>;

/** The database as a grant names it: in a database-level grant an unescaped _ matches any character. */
export function grantPattern(name: string): string {
  return assertDatabaseName(name).replaceAll('_', '\\_');
}

/** `db`.* for GRANT, with the name escaped as `grantPattern` does. */
export function grantTarget(name: string): string {
  return `\`${grantPattern(name)}\`.*`;
}
