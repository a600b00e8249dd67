import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { fillLogin } from '../support/panel';
import { PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';
import { waitToast } from '../support/ui';

const STAFF = { user: 'ana', password: 'consola-segura-2026' };
const CUSTOMER = { domain: 'console-cliente.test', user: 'cliente', password: 'cliente-seguro-2026' };
const REASON = 'Factura 2026-17 pendiente';
const COMPANY = 'Hosting Consola Nueva';

/** A code of the next 30-second step: never the step a previous code of this test used up. */
const nextCode = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

const serviceRow = (page: Page, domain: string) =>
  page.locator(`[data-testid="console-services"] [data-domain="${domain}"]`);

/** The customer's login page with the account's domain, user and password; the refusal's toast or /admin/. */
async function customerLogin(browser: Browser, url: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${url}/login/`);
  await fillLogin(page, CUSTOMER);
  await page.getByTestId('login-submit').click();
  return { page, close: () => context.close() };
}

describe.skipIf(!chromiumAvailable())('provider console', () => {
  const suite = browserSuite({ captcha: 'none' }, async (server) => {
    await server.cli(['staff', 'add', '--user', STAFF.user, '--password', STAFF.password]);
  });
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  let secret = '';
  beforeAll(async () => {
    ({ server, browser } = suite);
    const context = await newContext(browser);
    page = await context.newPage();
    errors = trackErrors(page);
  });

  it('sends a visitor without a staff session to its own sign-in page, not the customers’', async () => {
    await page.goto(`${server.url}/console/`);
    await page.waitForURL((url) => url.pathname === '/console/login/');
    await page.getByTestId('console-login-form').waitFor();
    expect(await page.title()).toContain('Consola de Panel247');
    // neither the customers' login form nor their session-loss dialog
    expect(await page.getByTestId('login-submit').count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('refuses a wrong password with a clear message', async () => {
    await page.getByTestId('console-login-username').fill(STAFF.user);
    await page.getByTestId('console-login-password').fill('not-the-password');
    await page.getByTestId('console-login-submit').click();
    await page.getByText('Usuario o contraseña incorrectos').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/login/');
  });

  it('sets the second factor up at the first sign-in from the secret shown, then shows the services', async () => {
    await page.getByTestId('console-login-password').fill(STAFF.password);
    await page.getByTestId('console-login-submit').click();
    const setup = page.getByTestId('console-login-step-setup');
    await setup.waitFor();
    secret = (await setup.getByTestId('two-factor-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const qr = setup.getByRole('img', { name: 'Código QR para la aplicación de autenticación' });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // the code's field has the focus: the code can be typed at once
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('console-login-code');
    expect(await seriousViolations(page)).toEqual([]);

    // a wrong code comes back under its field; the app's code signs in
    const current = generateSync({ secret });
    await page.keyboard.type(current === '000000' ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="console-login-code"]')?.getAttribute('aria-invalid') === 'true',
    );
    await page.getByTestId('console-login-code').fill(current);
    await page.getByTestId('console-login-code-submit').click();
    await page.waitForURL((url) => url.pathname === '/console/');
    await page.getByTestId('console-services-view').waitFor();
    expect(await page.getByTestId('console-user-menu').textContent()).toContain(STAFF.user);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('makes a plan "gold" in Plans', async () => {
    await page.getByTestId('console-nav-plans').click();
    await page.getByTestId('console-plans-view').waitFor();
    await page.getByTestId('plan-create').click();
    const form = page.getByTestId('plan-form');
    await form.getByTestId('plan-name').fill('gold');
    await form.getByTestId('plan-webSpaceMb').fill('2048');
    await form.getByTestId('plan-mailboxes').fill('x');
    await form.getByTestId('plan-submit').click();
    // a limit is a whole number or empty (no limit), checked before anything is sent
    await form.getByText('Escribe un número entero, o déjalo vacío para no poner límite').waitFor();
    await form.getByTestId('plan-mailboxes').fill('25');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByTestId('plan-submit').click();
    await form.waitFor({ state: 'hidden' });
    const row = page.locator('[data-testid="console-plans"] [data-name="gold"]');
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('2 GB');
    expect(text).toContain('25');
    expect(text).toContain('Sin límite');
  });

  it('makes an account on the plan gold, and suspends it with a reason', async () => {
    await page.getByTestId('console-nav-services').click();
    await page.getByTestId('console-services-view').waitFor();
    await page.getByTestId('account-create').click();
    const form = page.getByTestId('account-create-form');
    await form.getByTestId('account-domain').fill(CUSTOMER.domain);
    await form.getByTestId('account-username').fill(CUSTOMER.user);
    await form.getByTestId('account-password').fill(CUSTOMER.password);
    await form.getByTestId('account-email').fill('cliente@example.com');
    await form.getByTestId('account-plan').selectOption('gold');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByTestId('account-submit').click();
    await form.waitFor({ state: 'hidden', timeout: 30_000 });
    const row = serviceRow(page, CUSTOMER.domain);
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('active');
    expect(await row.textContent()).toContain('gold');

    // the row's menu, from the keyboard
    await row.getByTestId('service-actions').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('service-suspend').click();
    const suspend = page.getByTestId('suspend-form');
    await suspend.getByTestId('suspend-reason').fill(REASON);
    expect(await seriousViolations(page)).toEqual([]);
    await suspend.getByTestId('suspend-submit').click();
    await suspend.waitFor({ state: 'hidden' });
    await page.waitForFunction(
      (domain) =>
        document
          .querySelector(`[data-testid="console-services"] [data-domain="${domain}"]`)
          ?.getAttribute('data-state') === 'suspended',
      CUSTOMER.domain,
    );
    expect(await row.getByTestId('service-reason').textContent()).toBe(REASON);
  });

  it('the suspended customer is refused with the reason; once unsuspended, signs in', async () => {
    const refused = await customerLogin(browser, server.url);
    await refused.page.getByText(REASON, { exact: false }).first().waitFor();
    expect(
      await refused.page
        .getByText(/suspendida/)
        .first()
        .textContent(),
    ).toContain(REASON);
    expect(new URL(refused.page.url()).pathname).toBe('/login/');
    await refused.close();

    const row = serviceRow(page, CUSTOMER.domain);
    await row.getByTestId('service-actions').click();
    await page.getByTestId('service-unsuspend').click();
    await page.waitForFunction(
      (domain) =>
        document
          .querySelector(`[data-testid="console-services"] [data-domain="${domain}"]`)
          ?.getAttribute('data-state') === 'active',
      CUSTOMER.domain,
    );

    const admitted = await customerLogin(browser, server.url);
    await admitted.page.waitForURL((url) => url.pathname.startsWith('/admin/'), { timeout: 20_000 });
    await admitted.close();
  });

  it('fits a phone: services, plans and the menu behind the burger', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/console/`);
    await serviceRow(page, CUSTOMER.domain).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('console-burger').click();
    await page.getByTestId('console-nav-plans').click();
    await page.locator('[data-testid="console-plans"] [data-name="gold"]').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('signs out to its own sign-in page, which fits a phone and asks for the code next time', async () => {
    await page.getByTestId('console-user-menu').click();
    await page.getByTestId('console-logout').click();
    await page.waitForURL((url) => url.pathname === '/console/login/');
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('console-login-username').fill(STAFF.user);
    await page.getByTestId('console-login-password').fill(STAFF.password);
    await page.getByTestId('console-login-submit').click();
    // set up once: from now on only the code is asked for
    await page.getByTestId('console-login-step-code').waitFor();
    await page.getByTestId('console-login-code').fill(nextCode(secret));
    await page.getByTestId('console-login-code-submit').click();
    await page.waitForURL((url) => url.pathname === '/console/');
    expect(errors).toEqual([]);
  });

  it('shows the accounts, the work, the outbox, the activity, the servers and the brands', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const open = async (id: string, view: string) => {
      await page.getByTestId(`console-nav-${id}`).click();
      await page.getByTestId(view).waitFor();
    };

    // accounts: the scenario's account, and its owner among its users
    await open('accounts', 'console-accounts-view');
    const account = page.locator(`[data-testid="console-accounts"] [data-domain="${CUSTOMER.domain}"]`);
    await account.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await account.getByTestId('account-users').click();
    const users = page.getByTestId('account-users-modal');
    await users.locator(`[data-username="${CUSTOMER.user}"]`).waitFor();
    expect(await users.textContent()).toContain('cliente@example.com');
    expect(await seriousViolations(page)).toEqual([]);
    // the account's only user manages its users, and keeps that right: the account needs one
    const manages = users.locator(`[data-username="${CUSTOMER.user}"]`).getByTestId('account-user-manager');
    expect(await manages.isChecked()).toBe(true);
    await manages.click({ force: true });
    await waitToast(page, 'La cuenta debe conservar al menos un usuario activo que gestione usuarios');
    expect(await manages.isChecked()).toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).click();
    await users.waitFor({ state: 'hidden' });

    // work: both tables, and no failed job
    await open('work', 'console-work-view');
    await page.getByTestId('console-jobs').waitFor();
    await page.getByTestId('console-changes').waitFor();
    await page.getByTestId('console-work-filter').getByText('Fallidas').click();
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('[data-testid="console-work-filter"] input[value="failed"]')
          ?.checked === true &&
        document.querySelector('[data-testid="console-jobs"]')?.getAttribute('aria-busy') === 'false',
    );
    // the table's empty text is drawn beside the <table> that carries the test id
    expect(await page.getByTestId('console-work-view').textContent()).toContain('No hay tareas fallidas');
    expect(await page.locator('[data-testid="console-jobs"] [data-state]').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // outbox: the list, and only the unsent ones
    await open('outbox', 'console-outbox-view');
    await page.getByTestId('console-outbox').waitFor();
    // the switch, from the keyboard
    await page.getByTestId('outbox-unsent-only').focus();
    await page.keyboard.press('Space');
    expect(await page.getByTestId('outbox-unsent-only').isChecked()).toBe(true);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="console-outbox"] [data-sent]')].every(
        (row) => row.getAttribute('data-sent') === '0',
      ),
    );
    expect(await seriousViolations(page)).toEqual([]);

    // activity: the customer's sign-ins of this scenario, found by its domain
    await open('activity', 'console-activity-view');
    await page.getByTestId('console-activity-filter').fill(CUSTOMER.domain);
    // once the filter is in, every row is the account's
    await page.waitForFunction((domain) => {
      const rows = [...document.querySelectorAll('[data-testid="console-activity"] [data-account]')];
      return rows.length > 0 && rows.every((row) => row.getAttribute('data-account') === domain);
    }, CUSTOMER.domain);
    expect(await seriousViolations(page)).toEqual([]);

    // servers: the embedded default has none, so no warning either
    await open('servers', 'console-servers-view');
    await page
      .getByTestId('console-servers-view')
      .getByText('No hay servidores registrados', { exact: false })
      .waitFor();
    expect(await page.getByTestId('console-servers-down').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // brands: the default brand's company changed, and the customers' login page named by it
    await open('brands', 'console-brands-view');
    await page.locator('[data-testid="console-brands"] [data-default="1"]').getByTestId('brand-edit').click();
    const form = page.getByTestId('brand-form');
    await form.waitFor();
    expect(await page.getByTestId('brand-color-swatch').getAttribute('aria-label')).toMatch(/^Muestra del color/);
    await form.getByTestId('brand-logo').fill('not a logo');
    await form.getByTestId('brand-submit').click();
    await form.getByText('Escribe una dirección https:// o una ruta que empiece por /').waitFor();
    await form.getByTestId('brand-logo').fill('');
    await form.getByTestId('brand-company').fill(COMPANY);
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByTestId('brand-submit').click();
    await page.getByText('Marca guardada').first().waitFor();
    await page.waitForFunction((company) => document.title.includes(company), COMPANY);

    const context = await newContext(browser);
    const login = await context.newPage();
    await login.goto(`${server.url}/login/`);
    await login.getByTestId('login-submit').waitFor();
    await login.waitForFunction((company) => document.title === `Acceso / ${company}`, COMPANY);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('fits a phone: the work and a brand’s editor', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/console/work/`);
    await page.getByTestId('console-jobs').waitFor();
    await page.getByTestId('console-changes').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('console-burger').click();
    await page.getByTestId('console-nav-brands').click();
    await page.locator('[data-testid="console-brands"] [data-default="1"]').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.locator('[data-testid="console-brands"] [data-default="1"]').getByTestId('brand-edit').click();
    await page.getByTestId('legal-form').waitFor();
    expect(await page.getByTestId('brand-company').inputValue()).toBe(COMPANY);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
