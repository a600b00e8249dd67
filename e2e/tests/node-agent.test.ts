import { type ChildProcess, spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { ownPostgresDatabase } from '../support/postgres';
import { freePort, type PanelServer, REPO_ROOT } from '../support/server';
import { pageSuite } from '../support/suite';
import { waitToast } from '../support/ui';

/**
 * The customer's view of a node agent of its own (PANEL_AGENT=separate, PostgreSQL): with the
 * agent frozen, a web change is saved and shown as being applied; when the agent thaws and
 * applies it, the page learns it through the realtime channel and the notice goes, without a
 * reload.
 */
describe.skipIf(!chromiumAvailable())('a web change waiting for its node agent, in the browser', () => {
  const databaseUrl = ownPostgresDatabase();
  const env: Record<string, string> = {
    PANEL_DATABASE_URL: databaseUrl,
    PANEL_SEED_DEMO: 'true',
    PANEL_AGENT: 'separate',
    PANEL_WEB_APPLY_WAIT_SECONDS: '1',
    PANEL_WEB_PHP_SOCKETS: '8.2=/run/php/panel247-8.2,8.3=/run/php/panel247-8.3',
  };
  // Registered before the suite's own: the panel and its agent are started with the channel's address.
  beforeAll(async () => {
    env.PANEL_AGENT_URL = `http://127.0.0.1:${await freePort()}`;
  });
  const suite = pageSuite({ captcha: 'none', env }, async (page, server) => {
    await loginNoCaptcha(page, server.url);
    await page.getByTestId('side-menu').getByTestId('menu-item-hosting').click();
    await page.waitForURL(/\/admin\/\d+\/service\/$/);
    await page.getByTestId('hosting-info').waitFor();
  });
  let server: PanelServer;
  let page: Page;
  let agent: ChildProcess;

  beforeAll(async () => {
    ({ server, page } = suite);
    // the agent of the panel's machine, on the same database and data folder (its secret key)
    // node itself (not tsx's launcher, which runs it as a child): the signals reach the agent
    agent = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/agent-main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env, PANEL_DATA_DIR: server.dataDir, PANEL_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const look = (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('node agent: running')) resolve();
      };
      agent.stdout?.on('data', look);
      agent.stderr?.on('data', look);
      agent.once('exit', (code) => reject(new Error(`the agent exited with ${code}: ${seen}`)));
    });
  }, 90_000);
  afterAll(async () => {
    if (agent.exitCode !== null) return;
    const exited = new Promise((resolve) => agent.once('exit', resolve));
    agent.kill('SIGCONT');
    agent.kill('SIGTERM');
    await exited;
  });

  it('shows the change as being applied while the agent is frozen, and takes the notice away when it lands', async () => {
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    agent.kill('SIGSTOP');
    try {
      await page.getByTestId('hosting-php-select').selectOption('8.3');
      await waitToast(page, 'Versión de PHP guardada');
      // the answer carried the change's job: the service's state is read again and says so
      const notice = page.getByTestId('web-applying');
      await notice.waitFor();
      expect(await notice.getAttribute('data-state')).toBe('pending');
      expect(await notice.textContent()).toContain('Aplicándose');
      expect(await notice.getAttribute('role')).toBe('status');
    } finally {
      agent.kill('SIGCONT');
    }
    // the agent applies it; its event reaches the page (no polling within this time, no reload)
    await page.getByTestId('web-applying').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await page.getByTestId('hosting-php-select').inputValue()).toBe('8.3');
  });
});
