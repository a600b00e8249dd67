import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';
import { dialog } from '../support/ui';

/** Another browser on another system, so its row is told apart by what the user agent says. */
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/**
 * The preferences' sessions list in a real browser: ending another browser context's session
 * reaches that context's open page through the realtime socket, which shows the session-loss
 * modal without the page calling anything.
 */
describe.skipIf(!chromiumAvailable())('sessions list', () => {
  const suite = browserSuite({ captcha: 'none' });
  let server: PanelServer;
  let browser: Browser;
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  /** A second browser, logged in and left on a page with something typed. */
  async function elsewhere(userAgent?: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = userAgent
      ? await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-ES', userAgent })
      : await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/contact/`);
    await page.getByLabel(/^Asunto/).fill('Typed in the other browser');
    return { context, page };
  }

  const lossModal = (page: Page) => page.getByRole('dialog', { name: 'Tu sesión ha finalizado' });

  it('ends another browser’s session from the list, by keyboard: that page shows the session-loss modal', async () => {
    const other = await elsewhere(FIREFOX_WINDOWS);
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = trackErrors(page);
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);

    const card = page.getByTestId('sessions-card');
    const otherRow = card.locator('[data-testid="session-row"][data-current="false"]', {
      hasText: 'Firefox 133 en Windows 10',
    });
    await otherRow.waitFor();
    const mine = card.locator('[data-testid="session-row"][data-current="true"]');
    expect(await mine.count()).toBe(1);
    expect(await mine.getByTestId('session-current').textContent()).toBe('Esta sesión');
    expect(await mine.getByTestId('session-end').count()).toBe(0);
    expect(await otherRow.textContent()).toMatch(/IP 127\.0\.0\.1 · Última actividad:/);
    expect(await seriousViolations(page)).toEqual([]);

    // The keyboard alone: the row's button, Enter; the dialog starts on Cancel, Tab to confirm.
    const end = otherRow.getByRole('button', { name: /^Terminar la sesión de Firefox 133 en Windows 10/ });
    await end.focus();
    await page.keyboard.press('Enter');
    const confirm = dialog(page, 'session-end-modal');
    await confirm.getByText('Firefox 133 en Windows 10 (127.0.0.1)', { exact: false }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'session-end-modal-confirm',
    );
    await page.keyboard.press('Enter');
    await page.getByText('Sesión terminada', { exact: true }).first().waitFor();

    // The other page is told through its socket: no click, no call of its own.
    const modal = lossModal(other.page);
    await modal.waitFor({ timeout: 15_000 });
    expect(await other.page.getByLabel(/^Asunto/).inputValue()).toBe('Typed in the other browser');

    await otherRow.waitFor({ state: 'detached' });
    await card.getByTestId('sessions-only-this').waitFor();
    expect(await card.getByTestId('sessions-end-others').count()).toBe(0);
    // This session goes on.
    await page.getByTestId('change-password-open').waitFor();
    expect(await lossModal(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await other.context.close();
    await context.close();
  });

  it('ends all other sessions at once and keeps this one, on a phone', async () => {
    const first = await elsewhere();
    const second = await elsewhere(FIREFOX_WINDOWS);
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);

    const card = page.getByTestId('sessions-card');
    await card.locator('[data-testid="session-row"][data-current="false"]').nth(1).waitFor();
    // On the phone every row and its button fit the width: nothing to scroll sideways to.
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    for (const button of await card.getByTestId('session-end').all()) {
      const box = await insideViewport(button);
      expect(box.visible).toBe(true);
      expect(box.right).toBeLessThanOrEqual(PHONE.width);
    }

    await card.getByTestId('sessions-end-others').click();
    await dialog(page, 'sessions-end-others-modal').getByTestId('sessions-end-others-modal-confirm').click();
    await page.getByText('Se han terminado las demás sesiones', { exact: true }).first().waitFor();
    await lossModal(first.page).waitFor({ timeout: 15_000 });
    await lossModal(second.page).waitFor({ timeout: 15_000 });
    await card.getByTestId('sessions-only-this').waitFor();
    expect(await card.getByTestId('session-row').count()).toBe(1);
    expect(await lossModal(page).count()).toBe(0);
    await first.context.close();
    await second.context.close();
    await context.close();
  });
});
