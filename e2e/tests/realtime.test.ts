import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, newContext } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { ownPostgresDatabase } from '../support/postgres';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';

/**
 * The realtime socket in a real browser. On PostgreSQL a change made by the admin CLI (another
 * process) reaches the server through LISTEN/NOTIFY and the open page through its socket: the
 * menus follow without a reload.
 */
describe.skipIf(!chromiumAvailable())('realtime events in the browser (PostgreSQL)', () => {
  const databaseUrl = ownPostgresDatabase();
  const suite = browserSuite({
    captcha: 'none',
    env: { PANEL_DATABASE_URL: databaseUrl, PANEL_SEED_DEMO: 'true' },
  });
  let server: PanelServer;
  let browser: Browser;
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  it('a permission change made elsewhere refreshes the lists and the dashboard of the open page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/mail/`);
    const rows = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('[data-testid="resource-list"] tbody tr td:first-child')).map(
          (cell) => cell.textContent,
        ),
      );
    await page.getByRole('button', { name: 'Gestionar mail-demo.test' }).waitFor();
    expect(await rows()).toEqual(['demo.test', 'mail-demo.test']);
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    await server.cli([
      'permission',
      'revoke',
      '--domain',
      'demo.test',
      '--user',
      'admin',
      '--reference',
      'mail-demo.test',
    ]);
    await page
      .getByRole('button', { name: 'Gestionar mail-demo.test' })
      .waitFor({ state: 'detached', timeout: 10_000 });
    expect(await rows()).toEqual(['demo.test']);

    // the dashboard, opened in the app (no reload), counts what is left; a new grant comes back
    await page.getByTestId('side-menu').getByRole('link', { name: 'Escritorio' }).click();
    await page.getByTestId('info-card').waitFor();
    expect(await page.getByTestId('total-domains').textContent()).toBe('3');
    await server.cli([
      'permission',
      'set',
      '--domain',
      'demo.test',
      '--user',
      'admin',
      '--reference',
      'mail-demo.test',
      '--all',
      'write',
    ]);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="total-domains"]')?.textContent === '4',
      null,
      {
        timeout: 10_000,
      },
    );
    expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);
    await context.close();
  });
});
