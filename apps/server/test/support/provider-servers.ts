import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { runPanel } from './panel-cli.ts';
import type { ServerNamespace } from './server-namespace.ts';
import { TEST_PG_ADMIN_URL } from './test-database.ts';

const execFileAsync = promisify(execFile);
const NODE_ROLE_SQL = path.resolve(import.meta.dirname, '../../../../deploy/postgresql/node-role.sql');

/** psql as an operator runs it; rejects with its error output. */
export async function psql(url: string, args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, ...args]).catch(
    (error: { stderr?: string }) => {
      throw new Error(error.stderr ?? String(error));
    },
  );
  return stdout;
}

/**
 * A server added as the provider adds one: `panel node add` (its key, shown once), then its own
 * database role made with deploy/postgresql/node-role.sql as a superuser would. Answers the key
 * and the database URL its agent logs in with (the panel's database, as that role).
 */
export async function addServer(
  cliEnv: Record<string, string>,
  databaseUrl: string,
  name: string,
  options: { roles: string; channelUrl: string; ipv4: string; capacity?: number },
): Promise<{ key: string; roleUrl: string }> {
  const added = await runPanel(cliEnv, [
    'node',
    'add',
    name,
    '--roles',
    options.roles,
    '--capacity',
    String(options.capacity ?? 10),
    '--host',
    `${name}.example.net`,
    '--url',
    options.channelUrl,
    '--ipv4',
    options.ipv4,
    '--json',
  ]);
  if (added.code !== 0) throw new Error(`node add ${name}: ${added.stderr}`);
  const answer = JSON.parse(added.stdout) as { key: string; databaseRole: { name: string; password: string } };
  await psql(databaseUrl, [
    '-v',
    `node=${name}`,
    '-v',
    `password=${answer.databaseRole.password}`,
    '-v',
    'set_passwords=on',
    '-f',
    NODE_ROLE_SQL,
  ]);
  const roleUrl = new URL(databaseUrl);
  roleUrl.username = answer.databaseRole.name;
  roleUrl.password = answer.databaseRole.password;
  return { key: answer.key, roleUrl: roleUrl.toString() };
}

/**
 * A server in its namespace joined to the panel: added with its roles and its agent started as
 * its own database role, under its name and key.
 */
export async function joinServer(
  cliEnv: Record<string, string>,
  databaseUrl: string,
  name: string,
  server: ServerNamespace,
  roles: string,
): Promise<void> {
  const added = await addServer(cliEnv, databaseUrl, name, {
    roles,
    channelUrl: server.channelUrl,
    ipv4: server.ns.address,
  });
  await server.startAgent(
    added.roleUrl,
    { 'web.applyWaitSeconds': 5 },
    { PANEL_NODE: name, PANEL_NODE_KEY: added.key },
  );
}

/** The servers' roles are the cluster's: dropped with the test (their grants went with its database). */
export async function dropServerRoles(names: Iterable<string>): Promise<void> {
  for (const name of names)
    await psql(TEST_PG_ADMIN_URL, ['-c', `DROP ROLE IF EXISTS panel247_node_${name}`]).catch(() => undefined);
}
