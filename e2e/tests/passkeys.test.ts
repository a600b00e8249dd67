import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { closeWithDoubleEscape } from '../support/keyboard';
import { ADMIN, fillLogin, loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';

/**
 * Passkeys in Chromium, with its virtual authenticator (Chrome DevTools Protocol `WebAuthn.*`):
 * one is added in the preferences, then logs in alone and as the second step after the password,
 * is renamed, and is removed after re-authentication. WebAuthn needs a host name (never an IP address), so
 * the pages are opened as http://localhost:PORT, a secure context for the browser.
 */
describe.skipIf(!chromiumAvailable())('passkeys', () => {
  // The CLI ends sessions in another process: no session cache, so the server sees it at once.
  const suite = browserSuite({ captcha: 'none', env: { PANEL_SESSION_CACHE_SECONDS: '0' } });
  let server: PanelServer;
  let base = '';
  beforeAll(() => {
    server = suite.server;
    base = `http://localhost:${server.port}`;
  });

  it('adds a passkey in the preferences, logs in with it alone and after the password, renames it, and removes it with re-authentication', async () => {
    const context = await newContext(suite.browser);
    const page = await context.newPage();
    const errors = trackErrors(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    // A platform authenticator with user verification (like a laptop's fingerprint reader) that
    // answers at once, as a person touching it would.
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const credentials = async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as {
        isResidentCredential: boolean;
        rpId: string;
        signCount: number;
      }[];

    await loginNoCaptcha(page, base);
    await page.goto(`${base}/admin/preferences/`);
    const card = page.getByTestId('passkeys-card');
    await card.getByTestId('passkeys-empty').waitFor();

    await card.getByTestId('passkey-add').click();
    const add = page.getByRole('dialog', { name: 'Añadir una llave de acceso' });
    await add.getByTestId('passkey-name').fill('Portátil');
    await add.getByTestId('passkey-add-password').fill(ADMIN.password);
    // No second factor yet: the password alone, no code, no passkey to confirm with.
    expect(await add.getByTestId('passkey-add-code').count()).toBe(0);
    expect(await add.getByTestId('passkey-add-submit-passkey').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await add.getByTestId('passkey-add-submit').click();
    await add.waitFor({ state: 'hidden', timeout: 20_000 });
    await card.getByTestId('passkey-row').getByText('Portátil').waitFor();
    expect(await card.getByTestId('passkey-row').textContent()).toContain('sin usar');
    const made = await credentials();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

    // Signed out, the passkey alone logs in: domain and user, no password, no code.
    await signOut(page);
    await page.goto(`${base}/login/`);
    await page.getByLabel(/^Dominio/).fill(ADMIN.domain);
    await page.getByLabel(/^Usuario/).fill(ADMIN.user);
    await page.getByTestId('passkey-login').click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin/'), { timeout: 20_000 });

    // After the password, the second step offers the passkey (this user has no TOTP).
    await signOut(page);
    await page.goto(`${base}/login/`);
    await fillLogin(page, ADMIN);
    await page.getByTestId('login-submit').click();
    const step = page.getByTestId('second-factor-step');
    await step.waitFor({ timeout: 20_000 });
    expect(await step.getByText('Confirma que eres tú con una de tus llaves de acceso.').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await step.getByTestId('login-passkey').click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin/'), { timeout: 20_000 });
    expect((await credentials())[0]?.signCount).toBeGreaterThanOrEqual(2);

    // The session-loss modal asks for the second factor after the password too.
    await page.goto(`${base}/admin/preferences/`);
    await card.getByTestId('passkey-row').getByText('Portátil').waitFor();
    await server.cli(['sessions', 'end', '--domain', ADMIN.domain, '--user', ADMIN.user]);
    // With a passkey as the second factor, another is added only after that one confirms.
    await card.getByTestId('passkey-add').click();
    await add.getByTestId('passkey-name').fill('Otra');
    await add.getByTestId('passkey-add-password').fill(ADMIN.password);
    expect(await add.getByTestId('passkey-add-submit').count()).toBe(0);
    await add.getByTestId('passkey-add-submit-passkey').click();
    const lost = page.getByRole('dialog', { name: 'Tu sesión ha finalizado' });
    await lost.waitFor({ timeout: 15_000 });
    await lost.getByLabel(/^Contraseña/).fill(ADMIN.password);
    await lost.getByTestId('session-lost-submit').click();
    await lost.getByTestId('second-factor-step').waitFor({ timeout: 20_000 });
    await lost.getByTestId('login-passkey').click();
    await lost.waitFor({ state: 'hidden', timeout: 20_000 });
    await closeWithDoubleEscape(page, add, 'hidden');

    // The passkey is the only second factor: an API token is confirmed with it, not a code.
    const tokens = page.getByTestId('api-tokens-card');
    await tokens.getByTestId('api-token-new').click();
    const create = page.getByRole('dialog', { name: 'Nuevo token de API' });
    await create.getByTestId('api-token-name').fill('con llave');
    await create.getByTestId('api-token-resources').click();
    await create.getByTestId('api-token-resources').fill('shop-demo');
    await page.getByRole('option', { name: 'shop-demo.test' }).click();
    await create.getByTestId('api-token-password').fill(ADMIN.password);
    expect(await create.getByTestId('api-token-code').count()).toBe(0);
    expect(await create.getByTestId('api-token-submit').count()).toBe(0);
    await create.getByTestId('api-token-submit-passkey').click();
    await create.getByTestId('api-token-secret').waitFor({ timeout: 20_000 });
    await create.getByTestId('api-token-done').click();
    await tokens.getByTestId('api-token-row').getByText('con llave').waitFor();

    // Renaming it takes the name alone, prefilled; the row and the remove dialog follow.
    await card.getByTestId('passkey-rename').click();
    const rename = page.getByRole('dialog', { name: 'Renombrar la llave de acceso Portátil' });
    const newName = rename.getByTestId('passkey-rename-name');
    expect(await newName.inputValue()).toBe('Portátil');
    await newName.fill('  ');
    await rename.getByTestId('passkey-rename-submit').click();
    await rename.getByText('Este campo es obligatorio').waitFor();
    await newName.fill('Portátil del trabajo');
    await rename.getByTestId('passkey-rename-submit').click();
    await rename.waitFor({ state: 'hidden', timeout: 20_000 });
    await card.getByTestId('passkey-row').getByText('Portátil del trabajo').waitFor();
    // On a phone the row keeps both its actions on the screen.
    const desktop = page.viewportSize();
    await page.setViewportSize(PHONE);
    for (const action of ['passkey-rename', 'passkey-remove']) {
      const drawn = await insideViewport(card.getByTestId(action));
      expect(drawn.visible).toBe(true);
      expect(drawn.right).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    if (desktop) await page.setViewportSize(desktop);

    // Removing it asks for the password and a current factor: the passkey itself here.
    expect(await card.getByTestId('passkey-row').textContent()).toContain('último uso');
    await card.getByTestId('passkey-remove').click();
    const remove = page.getByRole('dialog', { name: 'Eliminar la llave de acceso Portátil del trabajo' });
    await remove.getByTestId('passkey-remove-password').fill('not the password');
    await remove.getByTestId('passkey-remove-submit').click();
    await remove.getByText('La contraseña actual no es correcta').waitFor({ timeout: 20_000 });
    await remove.getByTestId('passkey-remove-password').fill(ADMIN.password);
    await remove.getByTestId('passkey-remove-submit').click();
    await remove.waitFor({ state: 'hidden', timeout: 20_000 });
    await card.getByTestId('passkeys-empty').waitFor();

    // On a phone the section and its add dialog fit the screen and open from the keyboard.
    await page.setViewportSize(PHONE);
    await card.getByTestId('passkey-add').focus();
    await page.keyboard.press('Enter');
    await add.getByTestId('passkey-name').waitFor();
    for (const part of ['passkey-name', 'passkey-add-password', 'passkey-add-submit']) {
      const drawn = await insideViewport(add.getByTestId(part));
      expect(drawn.visible).toBe(true);
      expect(drawn.left).toBeGreaterThanOrEqual(0);
      expect(drawn.right).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('passkey-name');
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await closeWithDoubleEscape(page, add, 'hidden');

    // Without passkeys the password alone logs in again.
    await signOut(page);
    await loginNoCaptcha(page, base);
    expect(errors).toEqual([]);
    await context.close();
    // the longest journey of the suite (45 s on a quiet machine): the limit only catches a hang
  }, 180_000);

  async function signOut(page: Page) {
    await page.context().clearCookies();
  }
});
