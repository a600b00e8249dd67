import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { dialog, waitToast } from '../support/ui';

/** Logs in and opens demo.test's mail through the side menu; waits for the authentication card. */
async function openMailAuth(page: Page, baseUrl: string): Promise<void> {
  await loginNoCaptcha(page, baseUrl);
  await page.getByTestId('side-menu').getByTestId('menu-item-mail').click();
  await page.waitForURL(/\/admin\/\d+\/mail\/$/);
  await page.getByTestId('mail-auth-key').first().waitFor();
}

const selectors = (page: Page) =>
  page.getByTestId('mail-auth-key').evaluateAll((keys) => keys.map((key) => key.getAttribute('data-selector') ?? ''));

describe.skipIf(!chromiumAvailable())('Mail authentication card', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openMailAuth(page, server.url), { clipboard: true });

  it('shows the DKIM selector, its record with a copy button and its state, and SPF and DMARC', async () => {
    const { page } = suite;
    const card = page.getByTestId('mail-auth');
    expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe(
      'Autenticación del correo: DKIM, SPF y DMARC',
    );
    const [selector] = await selectors(page);
    expect(selector).toMatch(/^rsa\d{8}[0-9a-f]{4}$/);
    const key = card.locator(`[data-testid="mail-auth-key"][data-selector="${selector}"]`);
    expect(await key.getAttribute('data-state')).toBe('active');
    expect(await key.textContent()).toContain('Firmando');
    expect(await page.getByTestId(`mail-auth-dkim-${selector}-value`).textContent()).toMatch(/^v=DKIM1; k=rsa; p=MII/);
    expect(await page.getByTestId(`mail-auth-dkim-${selector}-lookup`).textContent()).toBe('Encontrado en DNS');
    await key.getByRole('button', { name: 'Copiar el valor del registro' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^v=DKIM1; k=rsa; p=MII/);
    expect(await page.getByTestId('mail-auth-spf-value').textContent()).toMatch(/^v=spf1 /);
    expect(await page.getByTestId('mail-auth-dmarc-summary').textContent()).toBe(
      'Política: ninguna (solo informes), al 100 % del correo',
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('edits DMARC and SPF with the guided form: a field error first, then the records it produced', async () => {
    const { page } = suite;
    await page.getByTestId('mail-auth-edit').click();
    const form = dialog(page, 'mail-auth-policy-modal');
    await form.waitFor();
    await form.getByTestId('mail-auth-policy').selectOption('quarantine');
    const pct = form.getByTestId('mail-auth-pct');
    await pct.fill('50');
    const includes = form.getByTestId('mail-auth-includes');
    await includes.fill('bad host!');
    await includes.press('Enter');
    await page.getByTestId('mail-auth-submit').click();
    await form.getByText('Inclusión SPF no válida: nombres de host, como máximo 8').waitFor();
    // the bad tag goes; a good one takes its place
    await includes.press('Backspace');
    await includes.fill('_spf.google.com');
    await includes.press('Enter');
    expect(await form.getByTestId('mail-auth-preview').textContent()).toContain('include:_spf.google.com');
    await page.getByTestId('mail-auth-submit').click();
    await waitToast(page, 'Registros SPF y DMARC guardados');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="mail-auth-dmarc-summary"]')?.textContent ===
        'Política: cuarentena, al 50 % del correo',
    );
    expect(await page.getByTestId('mail-auth-dmarc-value').textContent()).toMatch(/^v=DMARC1; p=quarantine; pct=50/);
    expect(await page.getByTestId('mail-auth-spf-value').textContent()).toContain('include:_spf.google.com');
  });

  it('rotates the key in one action and shows the rotation’s steps', async () => {
    const { page } = suite;
    const [before] = await selectors(page);
    await page.getByTestId('mail-auth-rotate').click();
    await dialog(page, 'mail-auth-rotate-modal').waitFor();
    await page.getByTestId('mail-auth-rotate-confirm').click();
    await waitToast(page, 'Rotación iniciada: el nuevo selector firmará en cuanto se resuelva');
    const steps = page.getByTestId('mail-auth-rotation');
    await steps.waitFor();
    expect(await steps.getAttribute('data-step')).toBe('withdrawing');
    const states = await page
      .getByTestId('mail-auth-key')
      .evaluateAll((keys) =>
        keys.map((key) => `${key.getAttribute('data-selector')} ${key.getAttribute('data-state')}`),
      );
    expect(states[0]).toBe(`${before} retiring`);
    expect(states[1]).toMatch(/ active$/);
    expect(await page.getByTestId('mail-auth-rotate').isDisabled()).toBe(true);
  });
});

describe.skipIf(!chromiumAvailable())('Mail authentication card on a phone', () => {
  // On a phone the side menu hides behind its button: the mail view is opened by its address.
  const suite = pageSuite(
    { captcha: 'none' },
    async (page, server) => {
      await loginNoCaptcha(page, server.url);
      const itemId = Number(/\/admin\/(\d+)\//.exec(new URL(page.url()).pathname)?.[1]);
      await page.goto(`${server.url}/admin/${itemId}/mail/`);
      await page.getByTestId('mail-auth-key').first().waitFor();
    },
    { context: PHONE },
  );

  it('fits the screen: the long DKIM record wraps, the buttons stay inside', async () => {
    const { page } = suite;
    const [selector] = await selectors(page);
    for (const testId of [`mail-auth-dkim-${selector}-value`, 'mail-auth-rotate', 'mail-auth-edit']) {
      const box = await insideViewport(page.getByTestId(testId));
      expect(box.visible, testId).toBe(true);
      expect(box.right, testId).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
  });
});
