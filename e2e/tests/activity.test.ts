import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { waitToast } from '../support/ui';

const RECORDS = '[data-testid="dns-list"] tbody tr[data-name]';
const ENTRIES = '[data-testid="activity-list"] tbody tr[data-action]';

/** The log's rows as `action: text`. */
function entries(page: Page): Promise<string[]> {
  return page
    .locator(ENTRIES)
    .evaluateAll((trs) =>
      trs.map((tr) => `${tr.getAttribute('data-action')}: ${(tr.textContent ?? '').replace(/\s+/g, ' ').trim()}`),
    );
}

describe.skipIf(!chromiumAvailable())('the activity log', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => loginNoCaptcha(page, server.url));
  let page: Page;

  beforeAll(() => {
    page = suite.page;
  });

  it('shows on the item’s Activity page the change just made, who made it and what it was', async () => {
    await page.getByTestId('side-menu').getByTestId('menu-item-dns').click();
    await page.waitForURL(/\/admin\/\d+\/service\/dns\/$/);
    await page.getByTestId('dns-filter').fill('dmarc');
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 1, RECORDS);
    await page.getByRole('button', { name: 'Eliminar _dmarc.demo.test' }).click();
    await page.getByTestId('dns-delete-modal-confirm').click();
    await waitToast(page, 'Registro eliminado');

    await page.getByTestId('side-menu').getByTestId('menu-item-activity').click();
    await page.waitForURL(/\/admin\/\d+\/activity\/$/);
    await page.locator(ENTRIES).first().waitFor();
    expect(await page.title()).toMatch(/^Actividad · demo\.test \/ /);
    const [newest] = await entries(page);
    expect(newest).toMatch(/^dns\/delete: /);
    expect(newest).toContain('Zona DNS');
    expect(newest).toContain('Registro DNS borrado');
    expect(newest).toContain('_dmarc TXT');
    expect(newest).toContain('valor: v=DMARC1');
    expect(newest).toContain('admin');
    expect(newest).toContain('127.0.0.1');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the account’s log with the logins, filtered by area, and exports what the filter keeps', async () => {
    await page.getByTestId('side-menu').getByTestId('menu-activity').click();
    await page.waitForURL(/\/admin\/activity\/$/);
    // the account's log holds the login too, beside the item's change
    await page.locator('[data-testid="activity-list"] tbody tr[data-action="auth.login"]').first().waitFor();
    expect((await entries(page)).some((entry) => entry.startsWith('dns/delete: '))).toBe(true);

    await page.getByTestId('activity-filter-area').click();
    await page.getByRole('option', { name: 'Seguridad', exact: true }).click();
    await page.waitForFunction(
      (selector) =>
        Array.from(document.querySelectorAll(selector)).every((tr) =>
          (tr.getAttribute('data-action') ?? '').startsWith('auth.'),
        ),
      ENTRIES,
    );
    const security = await entries(page);
    expect(security.length).toBeGreaterThan(0);
    expect(security.every((entry) => entry.includes('Seguridad'))).toBe(true);

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('activity-export').click()]);
    expect(file.suggestedFilename()).toBe('activity.csv');
    const csv = await readFile(await file.path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('time,user,ip,via,resource,area,action,target,changes');
    expect(lines.slice(1).every((line) => line.includes(',Seguridad,auth.'))).toBe(true);
    expect(csv).not.toContain('dns/delete');
  });
});

describe.skipIf(!chromiumAvailable())('the activity log on a phone', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => loginNoCaptcha(page, server.url), {
    context: PHONE,
  });

  it('fits a 390 px screen: filters stacked, entries as cards', async () => {
    const page = suite.page;
    await page.goto(`${suite.server.url}/admin/activity/`);
    const card = page.locator('[data-testid="activity-list"] [data-action]').first();
    await card.waitFor();
    expect(await card.textContent()).toContain('Inicio de sesión');
    for (const testId of ['activity-filter-area', 'activity-filter-to', 'activity-export']) {
      const box = await insideViewport(page.getByTestId(testId));
      expect(box.right, testId).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
  });
});
