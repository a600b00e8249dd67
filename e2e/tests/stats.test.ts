import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { waitToast } from '../support/ui';

/** A refresh goes through the work log and GoAccess: on a busy machine it may take a while. */
const REFRESH_WAIT = { timeout: 60_000 };

/** Logs in and opens demo.test's statistics through the side menu (no id guessed). */
async function openStats(page: Page, baseUrl: string): Promise<void> {
  await loginNoCaptcha(page, baseUrl);
  await page.getByTestId('side-menu').getByTestId('menu-item-stats').click();
  await page.waitForURL(/\/admin\/\d+\/service\/stats\/$/);
  await page.getByTestId('stats-view').waitFor();
}

/**
 * Requests of the demo's main site as nginx logs them (`panel247_vhost`): the embedded web driver
 * runs no nginx, so the test writes the service's access log where nginx would.
 */
function accessLog(): string {
  const now = new Date();
  const day = String(now.getUTCDate()).padStart(2, '0');
  const month = now.toLocaleString('en', { month: 'short', timeZone: 'UTC' });
  const stamp = `${day}/${month}/${now.getUTCFullYear()}:10:00:00 +0000`;
  const line = (pathName: string, status: number, referrer = '-') =>
    `demo.test 203.0.113.${status % 50} - - [${stamp}] "GET ${pathName} HTTP/1.1" ${status} 2048 "${referrer}" "Mozilla/5.0 Firefox/120.0"\n`;
  return [
    line('/', 200, 'https://buscador.example/?q=demo'),
    line('/', 200),
    line('/contacto/', 200),
    line('/no-existe', 404),
  ].join('');
}

describe.skipIf(!chromiumAvailable())('site statistics', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openStats(page, server.url));
  let page: Page;

  beforeAll(() => {
    page = suite.page;
  });

  it('opens from the side menu, with no statistics before the first refresh', async () => {
    await page.getByTestId('stats-empty').waitFor();
    expect(await page.getByTestId('stats-site').inputValue()).toBe('demo.test');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the site’s requests after "Refresh now": figures, the days’ chart, top pages and referring sites', async () => {
    const serviceId = /\/admin\/(\d+)\//.exec(page.url())?.[1] ?? '';
    const logs = path.join(suite.server.dataDir, 'web', 'logs', serviceId);
    mkdirSync(logs, { recursive: true });
    writeFileSync(path.join(logs, 'access.log'), accessLog());
    await page.getByTestId('stats-refresh').click();
    await waitToast(page, 'Las estadísticas se están actualizando');
    // read again until the refresh has landed
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('stats-view').waitFor();
          return page.getByTestId('stats-total-hits').count();
        },
        { ...REFRESH_WAIT, interval: 1000 },
      )
      .toBe(1);
    expect(await page.getByTestId('stats-total-hits').textContent()).toContain('4');
    expect(await page.getByTestId('stats-total-hits').textContent()).toContain('1 no encontrada');
    expect(await page.getByTestId('stats-pages').textContent()).toContain('/contacto/');
    expect(await page.getByTestId('stats-referrers').textContent()).toContain('buscador.example');
    await page.getByTestId('stats-days').locator('svg').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('on a phone, the figures and the lists fit the screen', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.reload();
      await page.getByTestId('stats-totals').waitFor();
      for (const locator of [page.getByTestId('stats-total-visitors'), page.getByTestId('stats-refresh')]) {
        const box = await insideViewport(locator);
        expect(box.visible).toBe(true);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(PHONE.width);
      }
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
