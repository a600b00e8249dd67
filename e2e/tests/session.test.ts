import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext } from '../support/browser';
import { ADMIN, fillLogin, loginNoCaptcha } from '../support/panel';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';
import { apiFromPage } from '../support/ui';

describe.skipIf(!chromiumAvailable())('session', () => {
  // The CLI ends sessions in another process: no session cache, so the server sees it at once.
  const suite = browserSuite({ captcha: 'none', env: { PANEL_SESSION_CACHE_SECONDS: '0' } });
  let server: PanelServer;
  let browser: Browser;
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  it('session loss: the login modal opens over the page and a re-login keeps what the user typed', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/contact/`);
    await page.getByLabel(/^Tu correo electrónico/).fill('ana@example.com');
    await page.getByLabel(/^Asunto/).fill('Typed before the session ended');
    await page.getByLabel(/^Mensaje/).fill('A long message the user does not want to lose');
    await page.getByTestId('privacy-checkbox').check();

    // the session ends on the server (admin CLI)
    await server.cli(['sessions', 'end', '--domain', 'demo.test', '--user', 'admin']);

    await page.getByTestId('contact-send').click();
    const modal = page.getByRole('dialog', { name: 'Tu sesión ha finalizado' });
    await modal.waitFor({ timeout: 15_000 });
    expect(await modal.getByLabel(/^Dominio/).inputValue()).toBe('demo.test');
    expect(await modal.getByLabel(/^Usuario/).inputValue()).toBe('admin');
    expect(await modal.getByTestId('session-lost-go-login').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    // single and double Escape: this modal cannot be dismissed without logging in
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await modal.isVisible()).toBe(true);

    await modal.getByLabel(/^Contraseña/).fill(ADMIN.password);
    await modal.getByTestId('session-lost-submit').click();
    await modal.waitFor({ state: 'hidden', timeout: 15_000 });
    expect(page.url()).toBe(`${server.url}/admin/contact/`);
    expect(await page.getByLabel(/^Asunto/).inputValue()).toBe('Typed before the session ended');
    expect(await page.getByLabel(/^Mensaje/).inputValue()).toBe('A long message the user does not want to lose');

    await page.getByTestId('contact-send').click();
    await page.getByText('Éxito').waitFor();
    await context.close();
  });

  it("session loss: 'go to login' reloads to the login page", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    await page.getByTestId('color-picker').waitFor();
    await server.cli(['sessions', 'end', '--domain', 'demo.test', '--user', 'admin']);
    await page.getByTestId('change-password-open').click();
    await page.getByLabel(/^Contraseña actual/).fill('whatever-123');
    await page.getByLabel(/^Nueva contraseña/).fill('whatever-456789');
    await page.getByTestId('change-password-submit').click();
    const modal = page.getByRole('dialog', { name: 'Tu sesión ha finalizado' });
    await modal.waitFor({ timeout: 15_000 });
    await modal.getByTestId('session-lost-go-login').click();
    await page.waitForURL(`${server.url}/login/`);
    await context.close();
  });

  it('password change: a refused current password is marked on its field; success ends the session', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    await page.getByTestId('change-password-open').click();
    const dialog = page.getByRole('dialog', { name: 'Cambiar contraseña' });
    await dialog.waitFor();

    // client-side: both required
    await dialog.getByTestId('change-password-submit').click();
    expect(await dialog.getByText('Este campo es obligatorio').count()).toBe(2);

    await dialog.getByLabel(/^Contraseña actual/).fill('not-the-password');
    await dialog.getByLabel(/^Nueva contraseña/).fill('a-new-password-2026');
    await dialog.getByTestId('change-password-submit').click();
    await page.locator('.mantine-Notification-root').first().waitFor();
    // the server's field error shows under its field
    await dialog.getByText('La contraseña actual no es correcta').waitFor();
    const describedBy = (await dialog.getByLabel(/^Contraseña actual/).getAttribute('aria-describedby')) ?? '';
    expect(describedBy).toMatch(/error/);
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByLabel(/^Contraseña actual/).fill(ADMIN.password);
    await dialog.getByTestId('change-password-submit').click();
    await page.waitForURL(`${server.url}/login/`, { timeout: 15_000 });
    await page.getByText('Éxito').waitFor();

    // the old password no longer works; the new one does
    await fillLogin(page, ADMIN);
    await page.getByTestId('login-submit').click();
    await page.locator('.mantine-Notification-root').nth(1).waitFor();
    expect(page.url()).toBe(`${server.url}/login/`);
    await loginNoCaptcha(page, server.url, { ...ADMIN, password: 'a-new-password-2026' });
    await context.close();
  });
});

/**
 * With the default session cache (5 s) a server on SQLite learns of a session ended by the CLI
 * (another process, no event reaches it) only when its cached copy runs out: within 5 s.
 */
describe.skipIf(!chromiumAvailable())('session ended elsewhere, default session cache', () => {
  const suite = browserSuite({ captcha: 'none' });
  let server: PanelServer;
  let browser: Browser;
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  it('refuses the session within the cache’s 5 seconds, and the page then asks to log in again', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/contact/`);
    await page.getByLabel(/^Asunto/).fill('Still typed');
    const info = () => apiFromPage<{ system: { statusCode: number } }>(page, 'user/info/', '');
    // the server now holds the session in its cache
    expect((await info()).system.statusCode).toBe(200);

    await server.cli(['sessions', 'end', '--domain', 'demo.test', '--user', 'admin']);
    const ended = Date.now();
    let refusedAfter = -1;
    while (Date.now() - ended < 8000) {
      if ((await info()).system.statusCode === 101) {
        refusedAfter = Date.now() - ended;
        break;
      }
      await page.waitForTimeout(200);
    }
    // 5 s of cache, counted in whole seconds by the server, plus the poll's step
    expect(refusedAfter).toBeGreaterThanOrEqual(0);
    expect(refusedAfter).toBeLessThanOrEqual(6200);

    await page.getByLabel(/^Tu correo electrónico/).fill('ana@example.com');
    await page.getByLabel(/^Mensaje/).fill('Sent after the session ended');
    await page.getByTestId('privacy-checkbox').check();
    await page.getByTestId('contact-send').click();
    await page.getByRole('dialog', { name: 'Tu sesión ha finalizado' }).waitFor({ timeout: 10_000 });
    expect(await page.getByLabel(/^Asunto/).inputValue()).toBe('Still typed');
    await context.close();
  });
});
