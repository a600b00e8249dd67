/**
 * `npm run stack`: the real stack on this machine, in one command — PowerDNS, Postfix + Dovecot,
 * ProFTPD, nginx + PHP-FPM, Pebble (a test ACME CA), a private MariaDB, phpMyAdmin, Roundcube and
 * the panel with its real drivers and the demo data, on loopback ports, all state under one folder (default
 * ./data/stack, kept across restarts), rendered from the deploy/ templates by the same harness the
 * integration tests use.
 *
 *   npm run stack                     start in the foreground; Ctrl-C stops everything
 *   npm run stack -- status [--json]  what runs, where
 *   npm run stack -- down             stop a stack started from another shell
 *   --dir FOLDER                      another state folder
 *   --no-node-sync                    no hourly safety net (`node.sync`) putting back what is
 *                                     broken by hand: for trying doctor and the syncs on it
 *
 * As root each hosting service runs as its own system user (`p247s<id>`, stack-users.ts), which
 * every stop removes again and the next start makes again.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DEMO, DEMO_SSL_HOST } from '../../apps/server/src/seed/demo-seed.ts';
import { keptPlacement } from '../daemons/daemon-harness.ts';
import { restoreServiceUsers, startStack } from './stack-services.ts';
import { alive, clearState, listening, readState, statusOf, writeState } from './stack-state.ts';
import { removeStackUsers, serviceUserRange, stackUsers } from './stack-users.ts';

const REPO = path.resolve(import.meta.dirname, '../..');

function parseArgs(argv: string[]) {
  const args = [...argv];
  let dir = path.join(REPO, 'data', 'stack');
  const at = args.indexOf('--dir');
  if (at >= 0) {
    dir = path.resolve(args[at + 1] ?? dir);
    args.splice(at, 2);
  }
  const json = args.includes('--json');
  const nodeSync = !args.includes('--no-node-sync');
  const command = args.find((arg) => !arg.startsWith('--')) ?? 'up';
  return { dir, json, nodeSync, command };
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function up(dir: string, nodeSync: boolean) {
  const previous = readState(dir);
  if (previous && alive(previous.pid)) {
    console.error(`A stack already runs from ${dir} (pid ${previous.pid}): npm run stack -- down`);
    process.exit(1);
  }
  const began = Date.now();
  mkdirSync(dir, { recursive: true });
  const range = await serviceUserRange(dir).catch((error: Error) => {
    console.error(`Cannot give the hosting services users of their own: ${error.message}`);
    process.exit(1);
  });
  // a kept stack's service users are made again meanwhile (before PHP-FPM starts)
  const serviceUsers = range && restoreServiceUsers(dir, range, (line) => console.log(line));
  console.log('Checking the Debian packages (scripts/install-system-deps.sh)…');
  try {
    execFileSync('bash', [path.join(REPO, 'scripts/install-system-deps.sh')], { stdio: 'inherit' });
  } catch {
    console.error('Could not install the missing packages (root or sudo needed); trying with what is there.');
  }
  execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'scripts/build-web-if-stale.ts')], {
    cwd: REPO,
    stdio: 'inherit',
  });
  console.log(`Starting the stack in ${dir}…`);
  const stack = await startStack(dir, keptPlacement(dir), (line) => console.log(line), {
    serviceUsers,
    nodeSync,
  }).catch(async (error: unknown) => {
    // what the panel made before the failure (the demo seed's users, a users sync that may
    // still be running) goes with the daemons
    await serviceUsers?.ready;
    await removeStackUsers(dir).catch(() => undefined);
    throw error;
  });
  writeState(dir, { pid: process.pid, startedAt: new Date().toISOString(), services: stack.services });

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the stack…');
    await stack.stop();
    // once nothing runs as them (their PHP pools, FTP sessions and file workers stopped above)
    await removeUsers(dir);
    clearState(dir);
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  const demoSite = 'demo.test';
  console.log(`\nPanel247's stack is up (${seconds} s).\n`);
  console.log(
    table([
      ['service', 'address', 'try it'],
      [
        'panel',
        stack.panelUrl,
        `open it; domain ${DEMO.domain}, ${DEMO.admin.username} / ${DEMO.admin.password} (or ${DEMO.viewer.username} / ${DEMO.viewer.password}, read-only)`,
      ],
      ['powerdns', `127.0.0.1:${stack.dnsPort}`, `dig @127.0.0.1 -p ${stack.dnsPort} ${DEMO.domain} SOA`],
      [
        'dovecot (IMAP)',
        `127.0.0.1:${stack.imapPort}`,
        `curl -u info@${DEMO.domain}:panel247-mail imap://127.0.0.1:${stack.imapPort}/INBOX`,
      ],
      [
        'dovecot (IMAPS)',
        `127.0.0.1:${stack.imapsPort}`,
        `curl --cacert pebble-root.pem --connect-to ${DEMO_SSL_HOST}:${stack.imapsPort}:127.0.0.1:${stack.imapsPort} -u info@${DEMO.domain}:panel247-mail imaps://${DEMO_SSL_HOST}:${stack.imapsPort}/INBOX`,
      ],
      [
        'postfix (SMTP)',
        `127.0.0.1:${stack.smtpPort}`,
        `curl smtp://127.0.0.1:${stack.smtpPort} --mail-from you@example.org --mail-rcpt info@${DEMO.domain} -T message.txt`,
      ],
      [
        'postfix (submission)',
        `127.0.0.1:${stack.submissionPort}`,
        `swaks --server 127.0.0.1:${stack.submissionPort} --tls --tls-verify --tls-ca-path pebble-root.pem --tls-sni ${DEMO_SSL_HOST} --auth-user info@${DEMO.domain} --auth-password panel247-mail --from info@${DEMO.domain} --to info@${DEMO.domain}`,
      ],
      [
        'postfix (submissions)',
        `127.0.0.1:${stack.submissionsPort}`,
        `swaks --server 127.0.0.1:${stack.submissionsPort} --tlsc --auth-user info@${DEMO.domain} --auth-password panel247-mail --from info@${DEMO.domain} --to info@${DEMO.domain}`,
      ],
      [
        'proftpd',
        `127.0.0.1:${stack.ftpPort}`,
        `curl -u web@${DEMO.domain}:panel247-ftp ftp://127.0.0.1:${stack.ftpPort}/`,
      ],
      [
        'nginx + php-fpm',
        `127.0.0.1:${stack.httpPort}`,
        `curl -H 'Host: ${demoSite}' http://127.0.0.1:${stack.httpPort}/`,
      ],
      ['', '', `chromium --host-resolver-rules='MAP *.test 127.0.0.1:${stack.httpPort}' http://${demoSite}/`],
      [
        'nginx (HTTPS)',
        `127.0.0.1:${stack.httpsPort}`,
        `a site's SSL → automatic; curl --cacert pebble-root.pem --resolve ${demoSite}:${stack.httpsPort}:127.0.0.1 https://${demoSite}:${stack.httpsPort}/`,
      ],
      [
        'pebble (ACME)',
        stack.acmeDirectoryUrl,
        `curl -k ${stack.pebbleManagementUrl}/roots/0 > pebble-root.pem (the root of what it issues, new at each start)`,
      ],
      ['mariadb', `127.0.0.1:${stack.mariadbPort}`, 'databases made in the panel; phpMyAdmin from its database list'],
      ['phpmyadmin', `${stack.phpMyAdminUrl}/phpmyadmin/`, 'opens logged in from a database’s phpMyAdmin button'],
      ['roundcube', stack.webmailUrl, 'opens logged in from a mailbox’s WebMail button'],
    ]),
  );
  if (range) {
    const users = await stackUsers(dir);
    console.log(
      `\nEach hosting service runs as its own system user (uids ${range.uidMin}..${range.uidMax}): ` +
        `${users.map((user) => `${user.name} (${user.uid})`).join(', ') || 'none yet'}; the stop removes them.`,
    );
  }
  console.log(`\nState: ${dir}. Ctrl-C (or npm run stack -- down) stops it all.`);
}

async function status(dir: string, json: boolean) {
  const state = readState(dir);
  const services = await statusOf(state && alive(state.pid) ? state : null);
  if (json) {
    console.log(JSON.stringify({ services }));
  } else if (Object.keys(services).length === 0) {
    console.log(`No stack runs from ${dir}.`);
  } else {
    console.log(
      table([
        ['service', 'ok', 'pid', 'address'],
        ...Object.entries(services).map(([name, s]) => [name, s.ok ? 'yes' : 'NO', String(s.pid ?? '-'), s.address]),
      ]),
    );
  }
  const down = Object.values(services).some((service) => !service.ok);
  process.exitCode = Object.keys(services).length === 0 || down ? 1 : 0;
}

/** Removes the stack's service users (and groups), saying which; a failure is reported, not thrown. */
async function removeUsers(dir: string): Promise<boolean> {
  try {
    const removed = await removeStackUsers(dir);
    if (removed.length > 0) console.log(`Removed the service users ${removed.join(', ')} and their groups.`);
    return true;
  } catch (error) {
    console.error(`Could not remove the stack's service users: ${(error as Error).message}`);
    return false;
  }
}

/**
 * Asks the foreground process to stop everything, then makes sure each process and port is gone,
 * and the stack's service users with them (the foreground removes them itself; what a killed one
 * left is removed here).
 */
async function down(dir: string) {
  const state = readState(dir);
  if (!state) {
    if (!(await removeUsers(dir))) process.exitCode = 1;
    console.log(`No stack runs from ${dir}.`);
    return;
  }
  const pids = [state.pid, ...Object.values(state.services).flatMap((service) => service.pids)];
  if (alive(state.pid)) process.kill(state.pid, 'SIGTERM');
  const until = Date.now() + 30_000;
  while (Date.now() < until && pids.some(alive)) await new Promise((resolve) => setTimeout(resolve, 100));
  // whatever is left (the foreground process was killed, say) is stopped by its recorded pid
  for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
  const open: string[] = [];
  for (const service of Object.values(state.services)) {
    if (await listening(service.address)) open.push(service.address);
  }
  clearState(dir);
  if (!(await removeUsers(dir))) process.exitCode = 1;
  if (open.length > 0) {
    console.error(`Stopped, but something still listens on ${open.join(', ')}`);
    process.exitCode = 1;
  } else {
    console.log('Stopped: no process of the stack is left.');
  }
}

const { dir, json, nodeSync, command } = parseArgs(process.argv.slice(2));
if (command === 'up') await up(dir, nodeSync);
else if (command === 'status') await status(dir, json);
else if (command === 'down') await down(dir);
else {
  console.error(`Unknown command ${command}: up (default), status [--json], down`);
  process.exitCode = 2;
}
