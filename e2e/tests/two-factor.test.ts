import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { ADMIN, fillLogin, loginNoCaptcha, VIEWER } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';

/**
 * A code for the next 30-second step: the server takes one step either side and each step once,
 * so this is never the step the previous code used up, whenever the test runs.
 */
const nextCode = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

describe.skipIf(!chromiumAvailable())('two-factor login', () => {
  // The CLI ends sessions in another process: no session cache, so the server sees it at once.
  const suite = browserSuite({ captcha: 'none', env: { PANEL_SESSION_CACHE_SECONDS: '0' } });
  let server: PanelServer;
  let browser: Browser;
  let secret = '';
  let recoveryCodes: string[] = [];
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  async function passwordStep(page: Page) {
    await page.goto(`${server.url}/login/`);
    await fillLogin(page, ADMIN);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('second-factor-step').waitFor({ timeout: 20_000 });
  }

  it('sets TOTP up in the preferences from the secret of the QR code, and shows ten recovery codes once', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = trackErrors(page);
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    const card = page.getByTestId('two-factor-card');
    expect(await card.getByTestId('two-factor-state').textContent()).toBe('Desactivada');

    await card.getByTestId('two-factor-setup').click();
    const dialog = page.getByRole('dialog', { name: 'Configurar la verificación en dos pasos' });
    await dialog.getByTestId('two-factor-secret').waitFor();
    secret = (await dialog.getByTestId('two-factor-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const qr = dialog.getByRole('img', { name: 'Código QR para la aplicación de autenticación' });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // A wrong code is refused on its field; the app's code turns it on.
    await dialog.getByTestId('two-factor-confirm-code').fill(nextCode(secret) === '000000' ? '111111' : '000000');
    await dialog.getByTestId('two-factor-confirm').click();
    await dialog.getByText('El código no es correcto').waitFor();
    await dialog.getByTestId('two-factor-confirm-code').fill(generateSync({ secret }));
    await dialog.getByTestId('two-factor-confirm').click();
    await dialog.getByTestId('recovery-codes').waitFor();
    recoveryCodes = await dialog.getByTestId('recovery-code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[2-9A-Z]{5}-[2-9A-Z]{5}$/);
    // Shown once: Escape does not hide them; the button that says they are saved does.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByTestId('two-factor-done').click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByText('Activada').waitFor();
    expect(await card.getByTestId('two-factor-codes-left').textContent()).toContain('10');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks for the code after the password on the login page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await passwordStep(page);
    // No session yet: the app shows the second step, still on the login page.
    expect(new URL(page.url()).pathname).toBe('/login/');
    const step = page.getByTestId('second-factor-step');
    expect(await step.getByText(/código de 6 dígitos/).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    // The field has the focus: the code can be typed at once.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('login-code');

    await page.keyboard.type('000000' === nextCode(secret) ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await step.getByText('El código no es correcto').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login/');

    await page.getByTestId('login-code').fill(nextCode(secret));
    await page.getByTestId('login-code-submit').click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin/'), { timeout: 20_000 });
    await context.close();
  });

  it('asks for it in the session-loss modal too, where a recovery code does', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await passwordStep(page);
    await page.getByTestId('login-code').fill(recoveryCodes[0] as string);
    await page.getByTestId('login-code-submit').click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin/'), { timeout: 20_000 });
    await page.goto(`${server.url}/admin/preferences/`);
    await page.getByTestId('two-factor-card').getByText('Activada').waitFor();

    await server.cli(['sessions', 'end', '--domain', 'demo.test', '--user', 'admin']);
    await page.getByTestId('change-password-open').click();
    await page.getByLabel(/^Contraseña actual/).fill('whatever-123');
    await page.getByLabel(/^Nueva contraseña/).fill('whatever-456789');
    await page.getByTestId('change-password-submit').click();
    const modal = page.getByRole('dialog', { name: 'Tu sesión ha finalizado' });
    await modal.waitFor({ timeout: 15_000 });
    await modal.getByLabel(/^Contraseña/).fill(ADMIN.password);
    await modal.getByTestId('session-lost-submit').click();
    await modal.getByTestId('second-factor-step').waitFor();
    // A used recovery code is refused; another one logs in.
    await modal.getByTestId('login-code').fill(recoveryCodes[0] as string);
    await modal.getByTestId('login-code-submit').click();
    await modal.getByText('El código no es correcto').waitFor();
    await modal.getByTestId('login-code').fill(recoveryCodes[1] as string);
    await modal.getByTestId('login-code-submit').click();
    await modal.waitFor({ state: 'hidden', timeout: 15_000 });
    expect(page.url()).toBe(`${server.url}/admin/preferences/`);

    // Turning it off asks for the password and a current code.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    const card = page.getByTestId('two-factor-card');
    await card.getByTestId('two-factor-off').click();
    const reauth = page.getByRole('dialog', { name: 'Desactivar' });
    await reauth.getByTestId('two-factor-reauth-password').fill(ADMIN.password);
    await reauth.getByTestId('two-factor-reauth-code').fill(recoveryCodes[2] as string);
    await reauth.getByTestId('two-factor-reauth-submit').click();
    await reauth.waitFor({ state: 'hidden' });
    await card.getByText('Desactivada').waitFor();
    await context.close();
  });

  it('on a phone, the set-up opens from the keyboard and fits the screen', async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    const button = page.getByTestId('two-factor-setup');
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Configurar la verificación en dos pasos' });
    await dialog.getByTestId('two-factor-secret').waitFor();
    for (const part of ['two-factor-qr', 'two-factor-secret', 'two-factor-confirm-code', 'two-factor-confirm']) {
      const drawn = await insideViewport(dialog.getByTestId(part));
      expect(drawn.visible).toBe(true);
      expect(drawn.left).toBeGreaterThanOrEqual(0);
      expect(drawn.right).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    // The code field is where typing goes once the dialog opens.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'two-factor-confirm-code',
    );
    await context.close();
  });

  it('a brand that requires two factors sends a user without one to set it up right after login', async () => {
    await server.cli(['brand', 'set', 'demo', '--require-2fa']);
    try {
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.goto(`${server.url}/login/`);
      await fillLogin(page, VIEWER);
      await page.getByTestId('login-submit').click();
      await page.waitForURL(`${server.url}/admin/preferences/`, { timeout: 20_000 });
      const card = page.getByTestId('two-factor-card');
      await card.getByTestId('two-factor-required').waitFor();
      expect(await card.getByTestId('two-factor-setup').isVisible()).toBe(true);
      await context.close();
    } finally {
      await server.cli(['brand', 'set', 'demo', '--optional-2fa']);
    }
  });
});
