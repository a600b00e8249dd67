import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { dialog, waitToast } from '../support/ui';

const ROWS = '[data-testid="dns-list"] tbody tr[data-name]';
const CHANGES = '[data-testid="dns-history"] tbody tr[data-id]';
const DMARC = '_dmarc.demo.test TXT v=DMARC1; p=none; rua=mailto:dmarc-reports@panel247.test (Por defecto)';

/** Logs in and opens demo.test's DNS zone through the side menu. */
async function openZone(page: Page, baseUrl: string): Promise<void> {
  await loginNoCaptcha(page, baseUrl);
  await page.getByTestId('side-menu').getByTestId('menu-item-dns').click();
  await page.waitForURL(/\/admin\/\d+\/service\/dns\/$/);
  await page.locator(ROWS).first().waitFor();
}

/** The history's rows, newest first, as `id kind`. */
function changes(page: Page): Promise<string[]> {
  return page
    .locator(CHANGES)
    .evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-id')} ${tr.getAttribute('data-kind')}`));
}

describe.skipIf(!chromiumAvailable())('DNS zone history', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openZone(page, server.url));
  let page: Page;
  let deleted = '';

  beforeAll(() => {
    page = suite.page;
  });

  it('opens a change in the History card, shows its diff, reverts it, and the record is back', async () => {
    await page.getByTestId('dns-filter').fill('dmarc');
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 1, ROWS);
    await page.getByRole('button', { name: 'Eliminar _dmarc.demo.test' }).click();
    await page.getByTestId('dns-delete-modal-confirm').click();
    await waitToast(page, 'Registro eliminado');
    await page.getByText('Ningún registro coincide con el filtro').waitFor();

    await expect.poll(async () => (await changes(page))[0]).toMatch(/^\d+ delete$/);
    deleted = ((await changes(page))[0] ?? '').split(' ')[0] as string;
    const row = page.locator(CHANGES).first();
    expect(await row.textContent()).toContain('Registro eliminado');
    await page.getByRole('button', { name: `Cambios de ${deleted}` }).click();
    const modal = dialog(page, 'dns-change-modal');
    await modal.getByTestId('dns-diff-removed').first().waitFor();
    expect(await modal.getByTestId('dns-diff-removed').allTextContents()).toEqual([`- ${DMARC}`]);
    expect(await modal.getByTestId('dns-diff-added').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await modal.getByTestId('dns-history-revert').click();
    expect(await dialog(page, 'dns-history-confirm').textContent()).toContain(`¿Revertir el cambio ${deleted}?`);
    await page.getByTestId('dns-history-confirm-confirm').click();
    await waitToast(page, 'Cambio revertido');
    await modal.waitFor({ state: 'detached' });
    // the record is back in the list (the filter still on), and the revert is the newest change
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 1, ROWS);
    expect(await page.locator(ROWS).first().getAttribute('data-name')).toBe('_dmarc.demo.test');
    await expect.poll(async () => (await changes(page))[0]).toMatch(/^\d+ revert$/);
    expect(await page.locator(CHANGES).first().textContent()).toContain(`Cambio ${deleted} revertido`);
  });

  it('refuses to revert a change a later one conflicts with, the reason beside the diff', async () => {
    await page.getByRole('button', { name: `Cambios de ${deleted}` }).click();
    const modal = dialog(page, 'dns-change-modal');
    await modal.getByTestId('dns-history-revert').click();
    await page.getByTestId('dns-history-confirm-confirm').click();
    const refusal = modal.getByTestId('dns-history-refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /^No se puede revertir: _dmarc\.demo\.test\. TXT ha vuelto a cambiar después \(cambio \d+\)\./,
    );
    await modal.getByRole('button', { name: 'Cerrar' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(await page.locator(ROWS).count()).toBe(1);
  });
});

describe.skipIf(!chromiumAvailable())('DNS zone history on a phone (390×844)', () => {
  // The side menu is a drawer on a phone: the zone is opened by its address, the item from the login's.
  const suite = pageSuite(
    { captcha: 'none' },
    async (page, server) => {
      await loginNoCaptcha(page, server.url);
      const itemId = Number(/\/admin\/(\d+)\//.exec(new URL(page.url()).pathname)?.[1]);
      await page.goto(`${server.url}/admin/${itemId}/service/dns/`);
    },
    { context: PHONE },
  );

  it('the History card stacks, and a change’s dialog, its diff and its buttons fit the screen', async () => {
    const page = suite.page;
    const history = page.getByTestId('dns-history');
    const first = history.locator('[data-id]').first();
    // the History card loads after the zone's first rows: on a loaded machine, well after
    await first.waitFor({ timeout: 45_000 });
    expect(await history.getAttribute('data-layout')).toBe('stacked');
    const open = first.getByRole('button', { name: /^Cambios de \d+$/ });
    for (const locator of [first.getByText('Registro creado'), open]) {
      const box = await insideViewport(locator);
      expect(box.visible).toBe(true);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(PHONE.width);
    }
    await open.click();
    const modal = dialog(page, 'dns-change-modal');
    await modal.getByTestId('dns-diff-added').first().waitFor();
    for (const testId of ['dns-diff-added', 'dns-history-export', 'dns-history-restore', 'dns-history-revert']) {
      const box = await insideViewport(modal.getByTestId(testId).first());
      expect(box.visible, testId).toBe(true);
      expect(box.left, testId).toBeGreaterThanOrEqual(0);
      expect(box.right, testId).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
