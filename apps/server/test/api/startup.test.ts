import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Envelope } from '@panel247/contract/envelope';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/daemons/daemon-harness.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read a few fields of raw answers
const json = (response: Response) => response.json() as Promise<Envelope<any>>;
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = 'apps/server/src/main.ts';

function startServer(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { ...process.env, PANEL_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function waitFor(predicate: () => boolean, what: () => string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out; output so far:\n${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('starting and stopping the server', () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.destroy());

  it('creates, migrates and seeds SQLite on first start, prints URL and logins, stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-start-'));
    const port = await freePort();
    const server = startServer({ PORT: String(port), PANEL_DATA_DIR: dataDir });
    await waitFor(() => server.output().includes('Panel247 is running'), server.output);
    expect(server.output()).toContain(`http://127.0.0.1:${port}/`);
    expect(server.output()).toContain('admin / panel247-demo');
    expect(server.output()).toContain('viewer / panel247-view');
    expect(existsSync(path.join(dataDir, 'panel.sqlite'))).toBe(true);

    const config = await fetch(`http://127.0.0.1:${port}/p247/config/get/`).then(json);
    expect(config.data.company).toBe('Panel247 Demo Hosting');
    const login = await fetch(`http://127.0.0.1:${port}/p247/user/login/`, {
      method: 'POST',
      headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ domainName: 'demo.test', username: 'viewer', password: 'panel247-view' }),
    }).then(json);
    // The captcha is on by default: a login without its answer is refused on that field.
    expect(login.system.inputs).toEqual(['recaptcha_response']);

    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    // The log writes asynchronously: only once the process is gone is all it wrote in.
    expect(server.output()).not.toContain('Captcha disabled');

    // A second start on the same folder keeps the data and seeds nothing twice.
    const again = startServer({ PORT: String(port), PANEL_DATA_DIR: dataDir, PANEL_CAPTCHA: 'none' });
    await waitFor(() => again.output().includes('Panel247 is running'), again.output);
    // Turning the captcha off is allowed (demo, tests) but never silent. The log line is written
    // asynchronously, so it may come after the banner, which is printed directly.
    await waitFor(() => again.output().includes('Captcha disabled'), again.output);
    const warning = again
      .output()
      .split('\n')
      .map((line) => {
        try {
          return JSON.parse(line) as { level?: number; msg?: string };
        } catch {
          return {};
        }
      })
      .find((line) => line.msg?.includes('Captcha disabled'));
    expect(warning).toMatchObject({
      level: 40,
      msg: 'Captcha disabled (PANEL_CAPTCHA=none): do not run like this in production',
    });
    const list = await fetch(`http://127.0.0.1:${port}/p247/user/login/`, {
      method: 'POST',
      headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ domainName: 'demo.test', username: 'admin', password: 'panel247-demo' }),
    });
    const cookie = list.headers.get('set-cookie')?.split(';')[0] ?? '';
    const permissions = await fetch(`http://127.0.0.1:${port}/p247/permission/list/`, {
      headers: { 'x-dd-request': '1', cookie },
    }).then(json);
    expect(permissions.data.permissions.map((p: { reference: string }) => p.reference)).toEqual([
      'demo.test',
      'mail-demo.test',
      'parking-demo.test',
      'shop-demo.test',
    ]);
    // The demo is coherent: parking-demo.test is parked, and SSL connections use the provider's host.
    const idOf = (reference: string) =>
      permissions.data.permissions.find((p: { reference: string; id: number }) => p.reference === reference).id;
    const get = (url: string) =>
      fetch(`http://127.0.0.1:${port}/p247/${url}`, { headers: { 'x-dd-request': '1', cookie } }).then(json);
    expect((await get(`service/${idOf('parking-demo.test')}/`)).data.service.parkingActive).toBe(true);
    expect((await get(`service/${idOf('demo.test')}/`)).data.service.parkingActive).toBe(false);
    expect((await get(`service/${idOf('demo.test')}/correo/connection/`)).data).toMatchObject({
      plain: { imap: 'imap.demo.test' },
      ssl: { imap: 'ssl.demohosting.test', smtp: 'ssl.demohosting.test' },
    });
    again.child.kill('SIGINT');
    expect(await again.exit).toBe(0);
  });

  it('starts on PostgreSQL with a default brand and no demo unless asked', async () => {
    database = await createTestDatabase('postgres');
    const port = await freePort();
    const server = startServer({ PORT: String(port), PANEL_DATABASE_URL: database.url as string });
    await waitFor(() => server.output().includes('Panel247 is running'), server.output);
    expect(server.output()).toContain('Database: PostgreSQL');
    expect(server.output()).not.toContain('panel247-demo');
    const config = await fetch(`http://127.0.0.1:${port}/p247/config/get/`).then(json);
    expect(config.data.company).toBe('Panel247');
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  });

  it('lists every configuration problem and exits with 1', async () => {
    const server = startServer({ PORT: 'seventy', PANEL_CAPTCHA: 'recaptcha', PANEL_DATABASE_URL: 'mysql://x' });
    expect(await server.exit).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toContain('port (PORT)');
    expect(server.output()).toContain('captcha.secret (PANEL_CAPTCHA_SECRET)');
    expect(server.output()).toContain('databaseUrl (PANEL_DATABASE_URL)');
  });
});
