import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { dropMariadbPrefix, MARIADB_URL } from './mariadb';

const execFileAsync = promisify(execFile);
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');

export interface PanelServer {
  url: string;
  port: number;
  dataDir: string;
  /** Put before the name of every MariaDB database and user this server creates (one per run). */
  databasePrefix: string;
  /** Runs the admin CLI against this server's data (`npm run panel -- …`), JSON answer parsed. */
  cli: (args: string[]) => Promise<unknown>;
  stop: () => Promise<void>;
  logs: () => string;
}

export interface StartOptions {
  captcha?: 'altcha' | 'none';
  env?: Record<string, string>;
}

/** A port nothing listens on now (the kernel's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForConfig(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/p247/config/get/`);
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not answer config/get in ${timeoutMs} ms: ${lastError}`);
}

/**
 * Starts the real server (`tsx apps/server/src/main.ts`) with its own data directory and port,
 * serving the built web app (run `npm run build -w apps/web` first), and waits for config/get.
 */
export async function startServer(options: StartOptions = {}): Promise<PanelServer> {
  // PANEL_WEB_DIST serves another build (a private one, beside someone else's test run).
  const dist = process.env.PANEL_WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} is missing: run \`npm run build -w apps/web\` before the e2e tests`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'panel247-e2e-'));
  const port = await freePort();
  // Real MariaDB databases, named apart from any other run sharing the server; dropped at stop().
  const databasePrefix = `e2e${randomBytes(4).toString('hex')}_`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PANEL_DATA_DIR: dataDir,
    PANEL_CAPTCHA: options.captcha ?? 'none',
    PANEL_LOG_LEVEL: 'warn',
    PANEL_DATABASES_DRIVER: 'mariadb',
    PANEL_DATABASES_URL: MARIADB_URL,
    PANEL_DATABASES_NAME_PREFIX: databasePrefix,
    // The site builder signs its links with this key (a real deployment shares it with the builder).
    PANEL_SITEBUILDER_KEY: 'e2e-site-builder-key-0123456789abcdef',
    // So do WebMail, WebFTP and phpMyAdmin with theirs (without a key the buttons say "not set up").
    PANEL_WEBMAIL_KEY: 'e2e-webmail-key-0123456789abcdef0123',
    PANEL_WEBFTP_KEY: 'e2e-webftp-key-0123456789abcdef01234',
    PANEL_BACKUP_DAILY_AT: '',
    // nor the node's hourly sync in the middle of a test
    PANEL_AGENT_SYNC_SECONDS: '0',
    PANEL_PHPMYADMIN_KEY: 'e2e-phpmyadmin-key-0123456789abcdef',
    ...options.env,
  };
  const child = spawn(TSX, ['apps/server/src/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForConfig(url, child, 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output}`);
  }

  return {
    url,
    port,
    dataDir,
    databasePrefix,
    logs: () => output,
    cli: async (args) => {
      const { stdout } = await execFileAsync(TSX, ['apps/server/src/cli/panel.ts', ...args, '--json'], {
        cwd: REPO_ROOT,
        env,
        timeout: 60_000,
      });
      try {
        return JSON.parse(stdout);
      } catch {
        return stdout;
      }
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      // A restic the server started may still be writing its cache there for a moment (ENOTEMPTY).
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      if (env.PANEL_DATABASES_DRIVER === 'mariadb') {
        await dropMariadbPrefix(databasePrefix).catch((error: Error) => {
          console.warn(`e2e: could not drop the MariaDB databases ${databasePrefix}*: ${error.message}`);
        });
      }
    },
  };
}
