/**
 * `npm run bench:provision`: a whole hosting service provisioned through the panel with the real
 * daemons of `npm run stack` — the provider's billing system creates the account through the
 * provisioning API (`provider/account/create/`, with a provider token), then its owner's API calls
 * give it a mailbox, a site, an FTP account and a database — and the time from the billing
 * system's call until every daemon serves it, each proved with a real client: dig at PowerDNS, an
 * IMAP login at Dovecot, an FTP upload at ProFTPD served back through nginx for the new site, a
 * MariaDB login. Aim: 2 s. The same API calls against a panel with the embedded drivers (no
 * daemon), started in the same run, are the baseline; the stack's figures are printed as a ratio
 * of it. Runs BENCH_PROVISION_ROUNDS services (default 5) on each and prints the medians.
 *
 * A benchmark reports: it exits 0 whatever the figures, 1 only when it cannot run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { loginToPanel, type PanelApiClient } from '../../apps/server/test/support/panel-api-client';
import { execFileAsync, requireBinary } from '../../scripts/daemons/daemon-harness';
import { REPO_ROOT, startServer } from '../support/server';

const ROUNDS = Number(process.env.BENCH_PROVISION_ROUNDS ?? 5);
const PASSWORD = 'Provision-bench-1';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = (value: number) => `${Math.round(value)} ms`;
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));

/** What the provider's CLI adds and the customer then fills. */
interface Provisioned {
  id: number;
  domain: string;
  mailbox: string;
  ftpUser: string;
  database: { name: string; user: string };
}

function check<T>(answer: { system: { valid: boolean; errors: string[] }; data: T }, what: string): T {
  if (!answer.system.valid) throw new Error(`${what} refused: ${answer.system.errors.join(' ')}`);
  return answer.data;
}

/** One step's time, kept under its name. */
async function timedStep<T>(steps: Map<string, number[]>, step: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  steps.set(step, [...(steps.get(step) ?? []), performance.now() - start]);
  return result;
}

/** The customer's calls, in the order a new customer makes them; answers the milliseconds of each. */
async function provision(api: PanelApiClient, id: number, domain: string, steps: Map<string, number[]>) {
  const timed = <T>(step: string, work: () => Promise<T>) => timedStep(steps, step, work);
  await timed('DNS zone', async () => check(await api('GET', `service/${id}/dns/list/`, { page: '1' }), 'zone'));
  await timed('mailbox', async () =>
    check(await api('POST', `service/${id}/correo/create/`, { name: 'info', password: PASSWORD }), 'mailbox'),
  );
  await timed('site', async () =>
    check(
      await api('POST', `service/${id}/subdomain/create/`, {
        subDomain: 'shop',
        folder: 'shop',
        SSLActive: '0',
        cert: '',
        certkey: '',
        certchain: '',
      }),
      'site',
    ),
  );
  const ftp = await timed('FTP account', async () =>
    check(
      await api<{ ftp: { user: string } }>('POST', `service/${id}/ftp/create/`, {
        ftpUser: 'web',
        password: PASSWORD,
        folder: 'shop',
      }),
      'FTP account',
    ),
  );
  const database = await timed('database', async () =>
    check(
      await api<{ ddbb: { bbdd: string; user: string } }>('POST', `service/${id}/ddbb/create/`, { password: PASSWORD }),
      'database',
    ),
  );
  return {
    id,
    domain,
    mailbox: `info@${domain}`,
    ftpUser: ftp.ftp.user,
    database: { name: database.ddbb.bbdd, user: database.ddbb.user },
  };
}

/**
 * The billing system's call: an account for the domain with its owner and its hosting service
 * (mail included) on the default plan; then the owner logs in. Answers the owner's API and the id.
 */
async function createAccount(
  panel: string,
  token: string,
  domain: string,
): Promise<{ api: PanelApiClient; id: number }> {
  const answer = await fetch(`${panel}/p247/provider/account/create/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'idempotency-key': `bench-${domain}-${Date.now()}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ domain, username: 'owner', password: PASSWORD }).toString(),
  });
  const made = check(
    (await answer.json()) as { system: { valid: boolean; errors: string[] }; data: { service: { id: number } } },
    'account',
  );
  const api = await loginToPanel(panel, { domainName: domain, username: 'owner', password: PASSWORD });
  return { api, id: made.service.id };
}

/** A provider token made with the panel's CLI (its text: the token is its last line). */
function tokenOf(output: unknown): string {
  const token = typeof output === 'object' && output !== null ? (output as { token?: string }).token : undefined;
  const found = token ?? String(output).trim().split('\n').at(-1) ?? '';
  if (!/^p247p_/.test(found)) throw new Error(`no provider token in: ${String(output)}`);
  return found;
}

/** Waits until `probe` succeeds (up to 30 s); answers when it did. */
async function until(probe: () => Promise<boolean>, what: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return performance.now();
    await sleep(20);
  }
  throw new Error(`${what} did not work within 30 s`);
}

/** `npm run stack` in a folder of its own; answers the daemons' addresses and how to stop it. */
async function startStack(dir: string) {
  const child: ChildProcess = spawn('npm', ['run', 'stack', '--', '--dir', dir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 240_000;
  while (!output.includes('stack is up')) {
    if (child.exitCode !== null) throw new Error(`npm run stack exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm run stack did not come up:\n${output}`);
    await sleep(250);
  }
  const stack = (...args: string[]) =>
    execFileAsync('npm', ['run', '-s', 'stack', '--', ...args, '--dir', dir], { cwd: REPO_ROOT, timeout: 60_000 });
  let status: { services: Record<string, { ok: boolean; address: string }> } = { services: {} };
  for (let attempt = 0; attempt < 40; attempt++) {
    const answer = await stack('status', '--json').then(
      (ok) => ok.stdout,
      (failed: { stdout?: string }) => failed.stdout ?? '',
    );
    status = JSON.parse(answer || '{"services":{}}');
    if (Object.values(status.services).length > 0 && Object.values(status.services).every((s) => s.ok)) break;
    await sleep(500);
  }
  const address = (name: string) => status.services[name]?.address ?? '';
  const stop = async () => {
    await stack('down').catch(() => undefined);
    child.kill('SIGKILL');
  };
  return { address, stop };
}

async function main(): Promise<void> {
  const dig = requireBinary('dig', 'bind9-dnsutils');
  const curl = requireBinary('curl', 'curl');
  const work = mkdtempSync(path.join(tmpdir(), 'p247-bench-provision-'));
  // The daemons' own users (mysql, www-data, the mail user) pass through it to the stack's folder.
  chmodSync(work, 0o755);
  const baselineSteps = new Map<string, number[]>();
  const stackSteps = new Map<string, number[]>();
  const baselineTotals: number[] = [];
  const apiTotals: number[] = [];
  const servedTotals: number[] = [];
  const embedded = await startServer({ env: { PANEL_DATABASES_DRIVER: 'embedded' } });
  let stopStack: (() => Promise<void>) | undefined;
  try {
    // The baseline: the panel alone, every driver embedded.
    const localToken = tokenOf(await embedded.cli(['provider-token', 'add', 'bench']));
    for (let round = 0; round < ROUNDS; round++) {
      const domain = `provision${round}.test`;
      const start = performance.now();
      const { api: local, id } = await timedStep(baselineSteps, 'account', () =>
        createAccount(embedded.url, localToken, domain),
      );
      await provision(local, id, domain, baselineSteps);
      baselineTotals.push(performance.now() - start);
    }

    const stackDir = path.join(work, 'stack');
    const stack = await startStack(stackDir);
    stopStack = stack.stop;
    const config = path.join(stackDir, 'panel', 'panel247.json');
    const panelCli = async (args: string[]) =>
      (
        await execFileAsync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/panel.ts', ...args], {
          cwd: REPO_ROOT,
          env: { ...process.env, PANEL_CONFIG_FILE: config },
          timeout: 120_000,
        })
      ).stdout;
    const stackToken = tokenOf(await panelCli(['provider-token', 'add', 'bench']));
    const mariadbUrl = new URL(JSON.parse(readFileSync(config, 'utf8')).databases.url as string);
    const upload = path.join(work, 'index.html');
    for (let round = 0; round < ROUNDS; round++) {
      const domain = `provision${round}.test`;
      const marker = `provisioned ${domain} ${Date.now()}`;
      writeFileSync(upload, marker);
      const start = performance.now();
      const { api, id } = await timedStep(stackSteps, 'account', () =>
        createAccount(`http://${stack.address('panel')}`, stackToken, domain),
      );
      const made: Provisioned = await provision(api, id, domain, stackSteps);
      apiTotals.push(performance.now() - start);
      // Every daemon proved with its own client, side by side; the last one to work ends the clock.
      const served = await Promise.all([
        until(async () => {
          const { stdout } = await execFileAsync(dig, [
            '@127.0.0.1',
            '-p',
            String(portOf(stack.address('powerdns'))),
            '+short',
            domain,
            'A',
          ]);
          return stdout.trim() !== '';
        }, 'dig'),
        until(async () => {
          await execFileAsync(curl, [
            '-s',
            '-f',
            '-u',
            `${made.mailbox}:${PASSWORD}`,
            `imap://${stack.address('dovecot')}/`,
          ]);
          return true;
        }, 'IMAP login'),
        until(async () => {
          await execFileAsync(curl, [
            '-s',
            '-f',
            '-u',
            `${made.ftpUser}:${PASSWORD}`,
            '-T',
            upload,
            `ftp://${stack.address('proftpd')}/index.html`,
          ]);
          const { stdout } = await execFileAsync(curl, [
            '-s',
            '-H',
            `Host: shop.${domain}`,
            `http://${stack.address('nginx')}/index.html`,
          ]);
          return stdout === marker;
        }, 'FTP upload served by nginx'),
        until(async () => {
          const connection = await mysql.createConnection({
            host: mariadbUrl.hostname,
            port: Number(mariadbUrl.port),
            user: made.database.user,
            password: PASSWORD,
            database: made.database.name,
          });
          await connection.end();
          return true;
        }, 'MariaDB login'),
      ]);
      servedTotals.push(Math.max(...served) - start);
    }

    console.log(`\nA hosting service provisioned (zone, mailbox, site, FTP account, database), median of ${ROUNDS}`);
    console.log('step            embedded   stack   ratio');
    for (const [step, times] of stackSteps) {
      const base = median(baselineSteps.get(step) ?? []);
      const real = median(times);
      console.log(`${step.padEnd(14)} ${ms(base).padStart(9)} ${ms(real).padStart(7)}  ${(real / base).toFixed(1)}×`);
    }
    const base = median(baselineTotals);
    const calls = median(apiTotals);
    const served = median(servedTotals);
    console.log(
      `${'API calls'.padEnd(14)} ${ms(base).padStart(9)} ${ms(calls).padStart(7)}  ${(calls / base).toFixed(1)}×`,
    );
    console.log(
      `until every daemon serves it (dig, IMAP, FTP + nginx, MariaDB): ${ms(served)}, ${(served / base).toFixed(1)}× the embedded calls — aim 2 s: ${served <= 2000 ? 'met' : 'missed'}`,
    );
  } finally {
    await stopStack?.();
    await embedded.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('bench:provision could not run:', error);
  process.exitCode = 1;
});
