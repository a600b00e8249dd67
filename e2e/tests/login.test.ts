import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { closeWithDoubleEscape, describeFocus, tabStops } from '../support/keyboard';
import { ADMIN, fillLogin, VIEWER } from '../support/panel';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';

/** Login with the real ALTCHA widget: the browser solves the proof of work itself. */
describe.skipIf(!chromiumAvailable())('login page (ALTCHA)', () => {
  const suite = browserSuite({ captcha: 'altcha' });
  let server: PanelServer;
  let browser: Browser;
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  /** The login route's code: the app renders the form once it is in. */
  const LOGIN_CODE = '**/assets/login-route-*.js';
  /** The configuration call: a page other than the login page asks for it before drawing anything. */
  const CONFIG_CALL = '**/p247/config/get/**';

  /** Holds the requests `pattern` matches back until the returned function is called. */
  async function hold(page: Page, pattern: string): Promise<() => void> {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(pattern, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  }

  /** Where the parts a visitor sees first are, to the pixel. */
  async function boxes(page: Page, selectors: string[]) {
    return Promise.all(selectors.map((selector) => page.locator(selector).first().boundingBox()));
  }

  it('draws the page from the HTML until the app takes over, in the same places, then shows its title, switchers and footer', async () => {
    for (const [width, colorScheme] of [
      [1280, 'light'],
      [390, 'dark'],
    ] as const) {
      const context = await newContext(browser, { width, height: 844, colorScheme });
      const page = await context.newPage();
      const errors = trackErrors(page);
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      // The login route's code held back (the page carries the configuration): only the server's
      // HTML frame can show, in the visitor's language and colour scheme, and the form cannot be
      // used yet.
      const release = await hold(page, LOGIN_CODE);
      await page.goto(`${server.url}/login/`);
      const frame = page.getByTestId('boot-shell');
      await frame.waitFor();
      await page.waitForTimeout(800);
      expect(await frame.isVisible()).toBe(true);
      expect(await frame.getByRole('heading', { name: 'Accede a tu panel de control' }).isVisible()).toBe(true);
      expect(await frame.getByRole('status').textContent()).toContain('Cargando');
      expect(await frame.locator('footer').textContent()).toContain('Panel247 Demo Hosting');
      expect(await page.getByTestId('login-submit').count()).toBe(0);
      expect(await page.title()).toBe('Acceso / Panel247 Demo Hosting');
      expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe(colorScheme);
      const drawn = await boxes(page, [
        '#boot-shell img',
        '#boot-shell section',
        '#boot-shell h1',
        '#boot-shell footer p',
      ]);

      release();
      await page.getByRole('heading', { name: 'Accede a tu panel de control' }).waitFor();
      await page.getByTestId('login-submit').waitFor();
      expect(await frame.count()).toBe(0);
      await page.unroute(LOGIN_CODE);
      const real = await boxes(page, [
        'main img',
        'section[aria-labelledby="login-title"]',
        'h1#login-title',
        'footer p',
      ]);
      for (const [index, box] of real.entries()) {
        const before = drawn[index];
        expect(box && before, `part ${index} at ${width} px`).toBeTruthy();
        for (const side of ['x', 'y', 'width', 'height'] as const) {
          expect(
            Math.abs((box?.[side] ?? 0) - (before?.[side] ?? 0)),
            `part ${index} ${side} at ${width} px`,
          ).toBeLessThanOrEqual(1);
        }
      }
      expect(await page.title()).toBe('Acceso / Panel247 Demo Hosting');
      expect(await page.getByRole('button', { name: 'Oscuro' }).isVisible()).toBe(true);
      expect(await page.getByLabel('Idioma').isVisible()).toBe(true);
      expect(await page.locator('footer').textContent()).toContain('Panel247 Demo Hosting');
      expect(await page.getByText('No soy un robot').isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      // no script refused by the Content-Security-Policy, no "not logged in" call failing
      expect(consoleErrors).toEqual([]);
      await context.close();
    }
  });

  it('draws the frame in the visitor’s language', async () => {
    const context = await newContext(browser, { locale: 'en-US' });
    const page = await context.newPage();
    await hold(page, LOGIN_CODE);
    await page.goto(`${server.url}/login/`);
    const frame = page.getByTestId('boot-shell');
    await frame.getByRole('heading', { name: 'Sign in to your control panel' }).waitFor();
    expect(await frame.getByRole('status').textContent()).toContain('Loading');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await context.close();
  });

  it('carries its configuration: the form asks for nothing before it is drawn', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('request', (request) => calls.push(new URL(request.url()).pathname));
    const sent = await page.goto(`${server.url}/login/`);
    expect(await sent?.text()).toContain(
      '<script type="application/json" id="panel247-boot">{"language":"es","config":{',
    );
    await page.getByTestId('login-submit').waitFor();
    // the configuration came with the page, and nobody is signed in
    expect(calls.filter((path) => path.startsWith('/p247/'))).toEqual([]);
    await context.close();
  });

  it('shows a loading screen on other pages until the configuration arrives', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const release = await hold(page, CONFIG_CALL);
    await page.goto(`${server.url}/admin/`);
    const loading = page.getByTestId('loading-screen');
    await loading.waitFor();
    expect(await loading.textContent()).toContain('Cargando');
    expect(await page.getByTestId('boot-shell').count()).toBe(0);
    await page.waitForTimeout(800);
    expect(await loading.isVisible()).toBe(true);
    expect(await page.locator('footer').count()).toBe(0);
    release();
    await page.waitForURL(`${server.url}/login/`);
    await page.getByTestId('login-submit').waitFor();
    expect(await loading.count()).toBe(0);
    await context.close();
  });

  it('keeps the card’s size while the captcha widget loads and verifies (no layout shift)', async () => {
    for (const width of [1280, 390]) {
      const context = await newContext(browser, { width, height: 844 });
      const page = await context.newPage();
      await page.goto(`${server.url}/login/`);
      await page.getByTestId('altcha-facade').waitFor();
      const formHeight = () =>
        page
          .locator('form')
          .first()
          .evaluate((form) => form.getBoundingClientRect().height);
      const before = await formHeight();
      // sampled every animation frame from the first focus until the widget says it is verified
      await page.evaluate(() => {
        const heights: number[] = [];
        (window as unknown as { heights: number[] }).heights = heights;
        const form = document.querySelector('form');
        const sample = () => {
          if (form) heights.push(form.getBoundingClientRect().height);
          requestAnimationFrame(sample);
        };
        sample();
      });
      await page.getByLabel(/^Dominio/).focus();
      await page.getByText('Verificado').waitFor({ timeout: 60_000 });
      const heights = await page.evaluate(() => (window as unknown as { heights: number[] }).heights);
      expect(heights.length).toBeGreaterThan(1);
      for (const height of heights) expect(Math.abs(height - before), `at ${width} px`).toBeLessThanOrEqual(1);
      await context.close();
    }
  });

  it('reaches every control with the keyboard, in order, with no stop lost to the page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/login/`);
    // the form, not the title: the title is in the page's HTML before the app can take keys
    await page.getByTestId('login-submit').waitFor();
    // The first focus in the form swaps the captcha's facade for the widget, which has one more
    // stop (its link); when it comes in depends on the machine, so the stops are read in order up
    // to the last control rather than counted.
    const stops = await tabStops(page, 16);
    const last = stops.findIndex((stop) => stop.includes('olvidado'));
    expect(last, stops.join('\n')).toBeGreaterThan(0);
    const reached = stops.slice(0, last + 1);
    expect(reached, 'the focus fell to the page').not.toContain('body');
    let from = 0;
    for (const expected of ['Sistema', 'Claro', 'Oscuro', 'Idioma', 'Dominio', 'Usuario', 'Contraseña', 'Entrar']) {
      const at = reached.findIndex((stop, index) => index >= from && stop.includes(expected));
      expect(
        at,
        `${expected} after ${reached[from - 1] ?? 'the start'}:\n${reached.join('\n')}`,
      ).toBeGreaterThanOrEqual(from);
      from = at + 1;
    }
    // the check sits between the password and the button, as the facade or as the widget
    expect(reached[reached.findIndex((stop) => stop.includes('Contraseña')) + 1]).toMatch(/^input:/);
    await context.close();
  });

  it('keeps the focus on the check when the widget takes the facade’s place', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/login/`);
    await page.getByTestId('login-submit').waitFor();
    // a keyboard user's first stop in the form may be the check itself: it wakes the widget up
    await page.getByTestId('altcha-facade').locator('input').focus();
    await page.getByTestId('altcha').locator('input[type="checkbox"]').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('altcha-widget') !== null)).toBe(true);
    await page.keyboard.press('Tab');
    const next = await describeFocus(page);
    // the widget's own link, then the button: not the page's first control again
    expect(next).toMatch(/altcha|Entrar/);
    await context.close();
  });

  it('refuses a wrong password with a message, then logs in once the widget has verified', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/login/`);
    await fillLogin(page, { ...ADMIN, password: 'wrong-password' });
    await page.locator('altcha-widget[data-state="verified"], altcha-widget >> text=Verificado').first().waitFor({
      timeout: 45_000,
    });
    await page.getByTestId('login-submit').click();
    await page.locator('.mantine-Notification-root').first().waitFor();
    expect(page.url()).toContain('/login/');

    // a refused attempt consumed the payload: the widget solves a fresh one
    await page.getByText('Verificado').waitFor({ timeout: 45_000 });
    await page.getByLabel(/^Contraseña/).fill(ADMIN.password);
    await page.getByText('Verificado').waitFor({ timeout: 45_000 });
    await page.getByTestId('login-submit').click();
    // login domain demo.test has a domain part: the redirect goes to its domain view
    await page.waitForURL(/\/admin\/\d+\/domain\/$/, { timeout: 20_000 });
    await page.getByTestId('domain-view').waitFor();
    expect(await page.title()).toBe('demo.test / Panel247 Demo Hosting');

    // a logged-in user who opens the login page goes to the dashboard
    await page.goto(`${server.url}/login/`);
    await page.waitForURL(`${server.url}/admin/`);
    await page.getByRole('heading', { name: 'Escritorio', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('sends a visitor without a session to the login page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    for (const path of ['/admin/', '/admin/preferences/', '/legal/', '/admin/3/service/ftp/']) {
      await page.goto(`${server.url}${path}`);
      await page.waitForURL(`${server.url}/login/`);
    }
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/login/`);
    await context.close();
  });

  it('the viewer (read-only on demo.test) also lands on the domain view', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/login/`);
    await fillLogin(page, VIEWER);
    await page.getByText('Verificado').waitFor({ timeout: 45_000 });
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/admin\/\d+\/domain\/$/, { timeout: 20_000 });
    await page.getByTestId('domain-view').waitFor();
    await context.close();
  });

  it('forgot-password modal: all fields required, send gated by the privacy box, closes on a double Escape', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/login/`);
    await page.getByTestId('forgot-open').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Tu nombre/).waitFor();
    for (const label of [/^Dominio/, /^Usuario/, /^Tu nombre/, /^Correo electrónico/, /^Mensaje/]) {
      expect(await dialog.getByLabel(label).getAttribute('required')).not.toBeNull();
    }
    expect(await dialog.getByLabel(/^Correo electrónico/).getAttribute('type')).toBe('email');
    const send = dialog.getByTestId('forgot-send');
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel(/^Dominio/).fill('demo.test');
    await dialog.getByLabel(/^Usuario/).fill('admin');
    await dialog.getByLabel(/^Tu nombre/).fill('Ana');
    await dialog.getByLabel(/^Correo electrónico/).fill('ana@example.com');
    await dialog.getByLabel(/^Mensaje/).fill('I lost my password');
    await dialog.getByText('Verificado').waitFor({ timeout: 45_000 });
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByTestId('privacy-checkbox').check();
    expect(await send.isEnabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // one Escape keeps it (and what was typed), two within 200 ms close it
    await page.keyboard.press('Escape');
    await page.waitForTimeout(400);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel(/^Mensaje/).inputValue()).toBe('I lost my password');
    await closeWithDoubleEscape(page, dialog, 'hidden');

    // and it closes after a successful submit
    await page.getByTestId('forgot-open').click();
    await dialog.getByLabel(/^Dominio/).fill('demo.test');
    await dialog.getByLabel(/^Usuario/).fill('admin');
    await dialog.getByLabel(/^Tu nombre/).fill('Ana');
    await dialog.getByLabel(/^Correo electrónico/).fill('ana@example.com');
    await dialog.getByLabel(/^Mensaje/).fill('I lost my password');
    await dialog.getByText('Verificado').waitFor({ timeout: 45_000 });
    await dialog.getByTestId('privacy-checkbox').check();
    await dialog.getByTestId('forgot-send').click();
    await dialog.waitFor({ state: 'hidden', timeout: 20_000 });
    await page.getByText('Éxito').waitFor();
    await context.close();
  });
});
