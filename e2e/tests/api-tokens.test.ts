import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { ADMIN, loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';
import { apiFromPage, dialog } from '../support/ui';

/**
 * The preferences' API tokens on a phone, used the way a script would: the secret copied from
 * the page, sent with curl's header and nothing else; revoked from the page, refused at once.
 */
describe.skipIf(!chromiumAvailable())('API tokens', () => {
  const suite = browserSuite({ captcha: 'none' });
  let server: PanelServer;
  beforeAll(() => {
    ({ server } = suite);
  });

  const asScript = (secret: string, path: string) =>
    fetch(`${server.url}/p247/${path}`, { headers: { authorization: `Bearer ${secret}` } });

  it('creates a token on a phone, shows it once, and a script reaches only its resource with it until revoked', async () => {
    const context = await newContext(suite.browser, PHONE);
    const page = await context.newPage();
    const errors = trackErrors(page);
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    const card = page.getByTestId('api-tokens-card');
    await card.getByTestId('api-tokens-empty').waitFor();

    await card.getByTestId('api-token-new').click();
    const modal = dialog(page, 'api-token-create-modal');
    await modal.getByTestId('api-token-name').fill('deploy from CI');
    await modal.getByTestId('api-token-resources').click();
    await modal.getByTestId('api-token-resources').fill('shop-demo');
    await page.getByRole('option', { name: 'shop-demo.test' }).click();
    // The chosen resource's own level, by keyboard: from "view only" one arrow to "view and change".
    const level = modal.getByRole('radiogroup', { name: 'Acceso a shop-demo.test' });
    await level.getByRole('radio', { name: 'Solo consultar' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await level.getByRole('radio', { name: 'Consultar y modificar' }).isChecked()).toBe(true);
    expect((await insideViewport(level)).right).toBeLessThanOrEqual(PHONE.width);
    await modal.getByTestId('api-token-password').fill(ADMIN.password);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    await modal.getByTestId('api-token-submit').click();

    const secretCode = modal.getByTestId('api-token-secret');
    await secretCode.waitFor();
    const secret = (await secretCode.textContent()) ?? '';
    expect(secret).toMatch(/^p247_[A-Za-z0-9_-]{43}$/);
    const copy = modal.getByRole('button', { name: 'Copiar el token' });
    expect((await insideViewport(copy)).right).toBeLessThanOrEqual(PHONE.width);
    await modal.getByTestId('api-token-done').click();
    await modal.waitFor({ state: 'detached' });
    // Shown once: the page no longer has it anywhere.
    expect(await page.content()).not.toContain(secret);

    // The script: no cookie, no CSRF header.
    const list = await asScript(secret, 'permission/list/');
    expect(list.status).toBe(200);
    const references = ((await list.json()) as { data: { permissions: { reference: string }[] } }).data.permissions;
    expect(references.map((entry) => entry.reference)).toEqual(['shop-demo.test']);
    expect((await asScript(secret, 'openapi.json')).status).toBe(200);

    await page.reload();
    const row = card.getByTestId('api-token-row');
    await row.waitFor();
    expect(await row.textContent()).toMatch(
      /deploy from CI.*shop-demo\.test \(Consultar y modificar\).*Último uso .* desde 127\.0\.0\.1/,
    );
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect((await insideViewport(row.getByTestId('api-token-revoke'))).right).toBeLessThanOrEqual(PHONE.width);

    await row.getByTestId('api-token-revoke').click();
    await dialog(page, 'api-token-revoke-modal').getByTestId('api-token-revoke-modal-confirm').click();
    await card.getByTestId('api-tokens-empty').waitFor();
    expect((await asScript(secret, 'permission/list/')).status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('revokes every token at once on a phone, after the password: scripts are refused at once', async () => {
    const context = await newContext(suite.browser, PHONE);
    const page = await context.newPage();
    const errors = trackErrors(page);
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    const card = page.getByTestId('api-tokens-card');
    await card.getByTestId('api-tokens-empty').waitFor();
    const resources = await apiFromPage<{ data: { resources: { id: number }[] } }>(page, 'user/apitokens/resources/');
    const resource = resources.data.resources[0]?.id;
    const secrets: string[] = [];
    for (const name of ['one', 'two']) {
      const form = new URLSearchParams({
        name,
        expiresInDays: '7',
        scope: `${resource}:read`,
        password: ADMIN.password,
      });
      const made = await apiFromPage<{ data: { token: string } }>(page, 'user/apitokens/create/', form.toString());
      secrets.push(made.data.token);
    }
    await page.reload();
    await card.getByTestId('api-token-row').nth(1).waitFor();
    const revokeAll = card.getByTestId('api-tokens-revoke-all');
    expect((await insideViewport(revokeAll)).right).toBeLessThanOrEqual(PHONE.width);
    await revokeAll.click();
    const modal = dialog(page, 'api-tokens-revoke-all-modal');
    await modal.getByTestId('api-tokens-revoke-all-password').fill('not the password');
    await modal.getByTestId('api-tokens-revoke-all-submit').click();
    await modal.getByText('La contraseña actual no es correcta').first().waitFor();
    for (const secret of secrets) expect((await asScript(secret, 'permission/list/')).status).toBe(200);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);

    await modal.getByTestId('api-tokens-revoke-all-password').fill(ADMIN.password);
    await modal.getByTestId('api-tokens-revoke-all-submit').click();
    await modal.waitFor({ state: 'detached' });
    await card.getByTestId('api-tokens-empty').waitFor();
    for (const secret of secrets) expect((await asScript(secret, 'permission/list/')).status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });
});
