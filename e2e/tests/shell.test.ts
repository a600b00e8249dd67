import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { closeWithDoubleEscape, describeFocus, tabStops } from '../support/keyboard';
import { loginNoCaptcha } from '../support/panel';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';
import { apiFromPage } from '../support/ui';

async function scheme(page: Page): Promise<string | null> {
  return page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
}

async function primaryColor(page: Page): Promise<string> {
  return page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled').trim(),
  );
}

/** Whether a status badge's dot (its ::before) is painted red or green. */
async function dotColor(dot: Locator): Promise<string> {
  const rgb = await dot.evaluate((element) => getComputedStyle(element, '::before').backgroundColor);
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  if (r > g + 60 && r > b + 60) return 'red';
  if (g > r + 60 && g > b) return 'green';
  return rgb;
}

/** Presses `key` until the focused element's description (see tabStops) matches, at most 40 times. */
async function pressUntilFocused(page: Page, key: string, wanted: RegExp): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press(key);
    const current = await describeFocus(page);
    seen.push(current);
    if (wanted.test(current)) return;
  }
  throw new Error(`${wanted} never got the focus; seen: ${seen.join(', ')}`);
}

async function idOf(page: Page, reference: string): Promise<number> {
  const list = await apiFromPage<{ data: { permissions: { id: number; reference: string }[] } }>(
    page,
    'permission/list/',
  );
  const id = list.data.permissions.find((entry) => entry.reference === reference)?.id;
  if (!id) throw new Error(`${reference} is not in the permission list`);
  return id;
}

/** The layout, theme, languages, lists, legal, contact, not-found and mobile, on a server without captcha. */
describe.skipIf(!chromiumAvailable())('panel shell', () => {
  const suite = browserSuite({ captcha: 'none' }, async (server) => {
    // 15 more domains for the pagination of the lists (10 per page)
    await server.cli([
      'resource',
      'add',
      '--domain',
      'demo.test',
      '--count',
      '15',
      '--prefix',
      'page',
      '--grant-user',
      'admin',
      '--domain-part',
    ]);
  });
  let server: PanelServer;
  let browser: Browser;
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  it('dashboard: layout, menus, cards, title, status indicators; no serious axe violation on any page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = trackErrors(page);
    await loginNoCaptcha(page, server.url);
    // login domain demo.test → its domain view, with the per-item menu and expiry indicators
    await page.getByTestId('domain-view').waitFor();
    const side = page.getByTestId('side-menu');
    for (const id of ['menu-item-domain', 'menu-item-hosting', 'menu-item-mail', 'menu-item-dns', 'menu-list-domain']) {
      expect(await side.getByTestId(id).isVisible(), id).toBe(true);
    }
    // demo.test runs for months yet: every dot green, the date as tooltip
    for (const key of ['domain', 'service', 'mail', 'dnszone']) {
      const dot = page.getByTestId(`status-${key}`);
      expect(await dot.getAttribute('data-expired'), key).toBe('false');
      expect(await dotColor(dot), key).toBe('green');
    }
    await page.getByTestId('status-domain').hover();
    await page.getByRole('tooltip').waitFor();
    expect(await page.getByRole('tooltip').textContent()).toMatch(/^Caduca el /);
    expect(await seriousViolations(page)).toEqual([]);
    // shop-demo.test's domain expired five days ago: a red dot, "expired on" in the tooltip
    const shop = await idOf(page, 'shop-demo.test');
    await page.goto(`${server.url}/admin/${shop}/domain/`);
    const expired = page.getByTestId('status-domain');
    await expired.waitFor();
    expect(await expired.getAttribute('data-expired')).toBe('true');
    expect(await dotColor(expired)).toBe('red');
    await expired.focus();
    await page.getByRole('tooltip').waitFor();
    expect(await page.getByRole('tooltip').textContent()).toMatch(/^Caducó el /);
    expect(await page.getByTestId('status-service').count()).toBe(0);

    await page.goto(`${server.url}/admin/`);
    await page.getByTestId('info-card').waitFor();
    expect(await page.title()).toBe('Escritorio / Panel247 Demo Hosting');
    // the spec's total counts the permission list (products); each part is counted as its list shows it
    expect(await page.getByTestId('info-card').textContent()).toContain('Total de productos19');
    expect(await page.getByTestId('total-domains').textContent()).toBe('19');
    expect(await page.getByTestId('dashboard-count-domain').textContent()).toBe('17');
    expect(await page.getByTestId('dashboard-count-service').textContent()).toBe('2');
    expect(await page.getByTestId('dashboard-count-mail').textContent()).toBe('2');
    expect(await page.getByTestId('dashboard-username').textContent()).toBe('admin');
    expect(await page.locator('footer').last().textContent()).toContain(String(new Date().getFullYear()));
    expect(await seriousViolations(page)).toEqual([]);

    for (const [path, heading] of [
      ['/admin/domain/', 'Dominios'],
      ['/admin/service/', 'Servicios'],
      ['/admin/mail/', 'Correo'],
      ['/admin/preferences/', 'Preferencias'],
      ['/legal/', 'Aviso legal'],
      ['/admin/contact/', 'Contacto'],
      ['/contact/', 'Contacto'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(await page.title()).toBe(`${heading} / Panel247 Demo Hosting`);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    // the legal notice has the sections the spec lists
    await page.goto(`${server.url}/legal/`);
    await page.getByTestId('legal-law').waitFor();
    for (const section of ['identification', 'conditions', 'privacy', 'liability', 'contact', 'law']) {
      expect(await page.getByTestId(`legal-${section}`).isVisible()).toBe(true);
    }
    expect(await page.getByText(/encargado del tratamiento/).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists: alphabetical, case-insensitive filter, 10 per page, placeholder, navigation by first flag', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/domain/`);
    const rows = page.locator('[data-testid="resource-list"] tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(10);
    const firstPage = await rows.locator('td:first-child').allTextContents();
    expect(firstPage[0]).toBe('demo.test');
    expect([...firstPage].sort((a, b) => a.localeCompare(b))).toEqual(firstPage);
    expect(await page.getByTestId('resource-list-pagination-text').textContent()).toBe('1–10 de 17');
    await page.getByRole('button', { name: 'Página 2' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="resource-list"] tbody tr').length === 7);
    expect(await rows.locator('td:first-child').allTextContents()).toContain('shop-demo.test');
    expect(await page.getByTestId('resource-list-pagination-text').textContent()).toBe('11–17 de 17');

    await page.getByTestId('list-filter').fill('PAGE001');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="resource-list"] tbody tr').length === 6);
    expect(await rows.locator('td:first-child').allTextContents()).toEqual([
      'page0010.test',
      'page0011.test',
      'page0012.test',
      'page0013.test',
      'page0014.test',
      'page0015.test',
    ]);
    // ten rows or fewer: no pagination bar (spec 2 section 2), the same rule as every other list
    expect(await page.getByTestId('resource-list-pagination-text').count()).toBe(0);
    await page.getByTestId('list-filter').fill('no-such-thing');
    await page.getByText('Sin resultados').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // the service list: parking-demo.test has only a service → its service view
    await page.goto(`${server.url}/admin/service/`);
    await page.getByRole('button', { name: 'Gestionar parking-demo.test' }).waitFor();
    expect(await page.locator('[data-testid="resource-list"] tbody tr').count()).toBeLessThanOrEqual(10);
    expect(await page.getByTestId('resource-list-pagination-text').count()).toBe(0);
    await page.getByRole('button', { name: 'Gestionar parking-demo.test' }).click();
    await page.waitForURL(/\/admin\/\d+\/service\/$/);
    await page.getByTestId('menu-item-parking').waitFor();
    // and it is parked, as its name says
    await page.getByTestId('hosting-parking-switch').waitFor();
    expect(await page.getByTestId('hosting-parking-switch').isChecked()).toBe(true);
    // the mail list: mail-demo.test has only mail → its mail view
    await page.goto(`${server.url}/admin/mail/`);
    await page.getByRole('button', { name: 'Gestionar mail-demo.test' }).click();
    await page.waitForURL(/\/admin\/\d+\/mail\/$/);
    await page.getByTestId('mail-view').waitFor();
    await context.close();
  });

  it('keyboard: menus, the user menu, lists, status dots, colours and the contact form work without a mouse', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/`);
    await page.getByTestId('info-card').waitFor();
    const stops = (await tabStops(page, 14)).join('\n');
    for (const expected of [
      'a:Escritorio',
      'a:Usuarios',
      'a:Dominios',
      'button:Menú de usuario de admin',
      'a:Servicios',
      'a:Correo',
      'a:Preferencias',
      'a:Aviso legal',
      'a:Contacto',
    ]) {
      expect(stops).toContain(expected);
    }

    // the user menu: Enter opens it, the arrows walk it, Enter follows the entry
    await page.getByTestId('user-menu').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await pressUntilFocused(page, 'ArrowDown', /Preferencias/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/admin/preferences/`);

    // every colour is a stop of its own; Space picks it
    await page.getByTestId('color-picker').waitFor();
    await pressUntilFocused(page, 'Tab', /^button:Esmeralda$/);
    await page.keyboard.press('Space');
    expect(await page.getByRole('radio', { name: 'Esmeralda' }).getAttribute('aria-checked')).toBe('true');
    expect(await primaryColor(page)).toMatch(/059669|5, 150, 105/i);
    await pressUntilFocused(page, 'Tab', /^button:Cambiar contraseña$/);

    // a list: filter, then open the row with Enter
    await page.goto(`${server.url}/admin/domain/`);
    await page.getByTestId('list-filter').waitFor();
    await pressUntilFocused(page, 'Tab', /^input:Filtrar/);
    await page.keyboard.type('SHOP');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="resource-list"] tbody tr').length === 1);
    await pressUntilFocused(page, 'Tab', /^button:Gestionar shop-demo\.test$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/admin\/\d+\/domain\/$/);
    // the status dot takes the focus and shows its date
    await page.getByTestId('status-domain').waitFor();
    await pressUntilFocused(page, 'Tab', /Caducó el/);
    await page.getByRole('tooltip').waitFor();

    // contact: type, tick the box with Space, then the send button is a stop and Enter sends
    await page.goto(`${server.url}/admin/contact/`);
    await page.getByTestId('contact-send').waitFor();
    await pressUntilFocused(page, 'Tab', /^input:Tu correo electrónico/);
    await page.keyboard.type('ana@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('By keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Sent without touching the mouse');
    await pressUntilFocused(page, 'Tab', /^input:He leído/);
    await page.keyboard.press('Space');
    await pressUntilFocused(page, 'Tab', /^button:Enviar/);
    await page.keyboard.press('Enter');
    await page.getByText('Éxito').waitFor();
    await context.close();
  });

  it('theme and colour persist over a reload and reach another tab at once', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    // the preferences view is on screen before a second tab takes the machine's attention
    await page.getByTestId('theme-select').waitFor({ timeout: 30_000 });
    const other = await context.newPage();
    await other.goto(`${server.url}/admin/`);
    await other.getByTestId('info-card').waitFor({ timeout: 30_000 });
    await page.bringToFront();
    expect(await scheme(page)).toBe('light');

    await page.getByTestId('theme-select').click();
    await page.getByRole('option', { name: 'Oscuro' }).click();
    expect(await scheme(page)).toBe('dark');
    await page.getByRole('radio', { name: 'Rosado' }).click();
    expect(await page.getByRole('radio', { name: 'Rosado' }).getAttribute('aria-checked')).toBe('true');
    expect(await primaryColor(page)).toMatch(/e11d48|225, 29, 72/i);
    // cross-tab: the other tab follows without a reload
    await other.waitForFunction(() => document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark');
    expect(await primaryColor(other)).toMatch(/e11d48|225, 29, 72/i);
    expect(await seriousViolations(page)).toEqual([]);

    await page.reload();
    await page.getByTestId('color-picker').waitFor();
    expect(await scheme(page)).toBe('dark');
    expect(await page.getByRole('radio', { name: 'Rosado' }).getAttribute('aria-checked')).toBe('true');
    const stored = await page.evaluate(() => [localStorage.getItem('_ddcfg'), localStorage.getItem('_ddstyle')]);
    expect(JSON.parse(stored[0] ?? '{}').theme).toBe('dark');
    expect(stored[1]).toBe('rose');

    // system follows the operating system
    await page.getByTestId('theme-select').click();
    await page.getByRole('option', { name: 'Sistema' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.getAttribute('data-mantine-color-scheme') === 'light');
    await context.close();
  });

  it('language: switch to English and to Catalan, kept in the _lang cookie', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/preferences/`);
    await page.getByRole('heading', { level: 1, name: 'Preferencias' }).waitFor();
    await page.getByTestId('language-select').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Preferences' }).waitFor();
    expect(await page.title()).toBe('Preferences / Panel247 Demo Hosting');
    const cookie = (await context.cookies()).find((c) => c.name === '_lang');
    expect(cookie?.value).toBe('en');
    expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 23 * 3600);
    expect(cookie?.expires ?? 0).toBeLessThan(Date.now() / 1000 + 25 * 3600);

    await page.getByTestId('language-select').selectOption('ca');
    await page.getByRole('heading', { level: 1, name: 'Preferències' }).waitFor();
    expect(
      await page
        .getByText('Després del canvi hauràs de tornar a entrar, i els teus tokens d’API deixaran de funcionar.')
        .isVisible(),
    ).toBe(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Preferències' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ca');
    await page.getByTestId('language-select').selectOption('es');
    await page.getByRole('heading', { level: 1, name: 'Preferencias' }).waitFor();
    await context.close();
  });

  it('not-found: styled like the login page when logged out, inside the layout when logged in', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/no/such/page/`);
    await page.getByText('Error 404: ¡Página no encontrada!').waitFor();
    expect(await page.getByTestId('side-menu').count()).toBe(0);
    expect(await page.getByTestId('theme-mode').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Volver al escritorio' }).click();
    await page.waitForURL(`${server.url}/login/`);

    await loginNoCaptcha(page, server.url);
    for (const path of ['/no/such/page/', '/admin/nothing/', '/admin/999999/domain/']) {
      await page.goto(`${server.url}${path}`);
      await page.getByText('Error 404: ¡Página no encontrada!').waitFor();
      expect(await page.getByTestId('side-menu').isVisible(), path).toBe(true);
    }
    await page.getByRole('link', { name: 'Volver al escritorio' }).click();
    await page.waitForURL(`${server.url}/admin/`);
    await context.close();
  });

  it('contact: send stays disabled until the privacy box is ticked; the policy opens in a modal', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/contact/`);
    const send = page.getByTestId('contact-send');
    await send.waitFor();
    expect(await page.getByTestId('contact-side-text').isVisible()).toBe(true);
    await page.getByLabel(/^Tu correo electrónico/).fill('ana@example.com');
    await page.getByLabel(/^Asunto/).fill('Hello');
    await page.getByLabel(/^Mensaje/).fill('A question about my hosting');
    expect(await send.isDisabled()).toBe(true);

    await page.getByTestId('privacy-link').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect((await dialog.textContent())?.length ?? 0).toBeGreaterThan(50);
    expect(await seriousViolations(page)).toEqual([]);
    // one Escape keeps it open, two within 200 ms close it
    await page.keyboard.press('Escape');
    await page.waitForTimeout(400);
    expect(await dialog.isVisible()).toBe(true);
    await closeWithDoubleEscape(page, dialog, 'hidden');

    await page.getByTestId('privacy-checkbox').check();
    expect(await send.isEnabled()).toBe(true);
    await send.click();
    await page.getByText('Éxito').waitFor();
    expect(await page.getByLabel(/^Asunto/).inputValue()).toBe('');
    await context.close();
  });

  it('mobile width: the side menu collapses behind the burger; the contact side text hides', async () => {
    const context = await newContext(browser, { width: 375, height: 740 });
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/`);
    await page.getByTestId('info-card').waitFor();
    const side = page.getByTestId('side-menu');
    const offScreen = () =>
      page.waitForFunction(() => {
        const nav = document.querySelector('[data-testid="side-menu"]');
        return nav && nav.getBoundingClientRect().right <= 0 && nav.hasAttribute('inert');
      });
    await offScreen();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await page.getByTestId('burger').click();
    await side.getByRole('link', { name: 'Preferencias' }).click();
    await page.waitForURL(`${server.url}/admin/preferences/`);
    await offScreen();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/admin/contact/`);
    await page.getByTestId('contact-send').waitFor();
    expect(await page.getByTestId('contact-side-text').isVisible()).toBe(false);
    await context.close();
  });

  it('item page loading: the frame keeps its places (breadcrumb, side group) and the tab says it is loading', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginNoCaptcha(page, server.url);
    const id = Number(/\/admin\/(\d+)\//.exec(new URL(page.url()).pathname)?.[1]);
    await page.goto(`${server.url}/admin/contact/`);
    await page.getByTestId('contact-send').waitFor();
    // the item's permission set is held back: the page is between the two states
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/p247/permission/${id}/`, async (route) => {
      await held;
      await route.continue();
    });
    await page.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/admin/${id}/mail/`);
    await page.getByTestId('breadcrumb-skeleton').waitFor();
    expect(await page.getByTestId('side-item-skeleton').isVisible()).toBe(true);
    expect(await page.title()).toBe('Cargando… / Panel247 Demo Hosting');
    const breadcrumb = page.getByRole('navigation', { name: 'Ruta de navegación' });
    expect(await breadcrumb.textContent()).toContain('Escritorio');
    release();
    await page.getByTestId('side-menu').getByTestId('menu-item-mail').waitFor();
    expect(await page.getByTestId('breadcrumb-skeleton').count()).toBe(0);
    expect(await page.getByTestId('side-item-skeleton').count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Correo · demo.test / Panel247 Demo Hosting');
    await page.unrouteAll({ behavior: 'wait' });
    await context.close();
  });

  it('cross-tab: a login in one tab reloads the other, which then has the session', async () => {
    const context = await newContext(browser);
    const waiting = await context.newPage();
    await waiting.goto(`${server.url}/login/`);
    await waiting.getByTestId('login-submit').waitFor();
    await waiting.evaluate(() => Object.assign(window, { notReloaded: true }));
    const other = await context.newPage();
    await loginNoCaptcha(other, server.url);
    // the login page cannot be shown with a session: after its reload it goes to the panel
    await waiting.waitForURL((url) => url.pathname.startsWith('/admin/'), { timeout: 15_000 });
    expect(await waiting.evaluate(() => 'notReloaded' in window)).toBe(false);
    await context.close();
  });

  it('cross-tab: a language change in one tab reloads the other in that language', async () => {
    const context = await newContext(browser);
    const first = await context.newPage();
    await loginNoCaptcha(first, server.url);
    await first.goto(`${server.url}/admin/`);
    await first.getByRole('heading', { level: 1, name: 'Escritorio' }).waitFor();
    await first.evaluate(() => Object.assign(window, { notReloaded: true }));
    const second = await context.newPage();
    await second.goto(`${server.url}/admin/preferences/`);
    await second.getByTestId('language-select').selectOption('en');
    await second.getByRole('heading', { level: 1, name: 'Preferences' }).waitFor();
    await first.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 15_000 });
    expect(await first.evaluate(() => 'notReloaded' in window)).toBe(false);
    expect(await first.evaluate(() => document.documentElement.lang)).toBe('en');
    await context.close();
  });

  it('toasts: an error shows bottom-right and goes away by itself after 5 seconds', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/login/`);
    await page.getByLabel(/^Dominio/).fill('demo.test');
    await page.getByLabel(/^Usuario/).fill('admin');
    await page.getByLabel(/^Contraseña/).fill('not-the-password');
    await page.getByTestId('login-submit').click();
    const toast = page.locator('.mantine-Notification-root').first();
    await toast.waitFor();
    const shownAt = Date.now();
    // away from the toast: hovering would hold it open
    await page.mouse.move(5, 5);
    const box = await toast.boundingBox();
    const viewport = page.viewportSize() ?? { width: 0, height: 0 };
    expect(box).not.toBeNull();
    if (box) {
      expect(viewport.width - (box.x + box.width)).toBeLessThan(48);
      expect(viewport.height - (box.y + box.height)).toBeLessThan(48);
      expect(box.x).toBeGreaterThan(viewport.width / 2);
    }
    expect(await toast.textContent()).toMatch(/Error/);
    await page.waitForTimeout(4000);
    expect(await toast.isVisible()).toBe(true);
    await toast.waitFor({ state: 'hidden', timeout: 4000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(4500);
    expect(shownFor).toBeLessThan(7500);
    await context.close();
  });

  it('contact: with a redirect link from the server, the privacy policy opens in a new tab', async () => {
    // Only the English policy points elsewhere, so the Spanish one keeps its modal (test above).
    await server.cli([
      'legal',
      'set',
      '--brand',
      'demo',
      '--language',
      'en',
      '--title',
      'Privacy policy',
      '--text',
      'Our privacy policy lives on our main site.',
      '--redirect',
      'https://privacy.example.test/policy',
    ]);
    const context = await newContext(browser, { locale: 'en-GB' });
    await context.route('https://privacy.example.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Provider privacy</title><h1>Privacy</h1>' }),
    );
    const page = await context.newPage();
    await context.addCookies([{ name: '_lang', value: 'en', url: server.url }]);
    await loginNoCaptcha(page, server.url);
    await page.goto(`${server.url}/admin/contact/`);
    const link = page.getByTestId('privacy-link');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="privacy-link"]')?.getAttribute('target') === '_blank',
    );
    expect(await link.getAttribute('href')).toBe('https://privacy.example.test/policy');
    expect(await link.getAttribute('rel')).toContain('noopener');
    const [popup] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe('https://privacy.example.test/policy');
    expect(await popup.title()).toBe('Provider privacy');
    expect(await page.getByRole('dialog').count()).toBe(0);
    // ticking the box is still what gates the form
    expect(await page.getByTestId('contact-send').isDisabled()).toBe(true);
    await context.close();
  });

  it('cross-tab: logging out in one tab sends the other to the login page', async () => {
    const context = await newContext(browser);
    const first = await context.newPage();
    await loginNoCaptcha(first, server.url);
    const second = await context.newPage();
    await second.goto(`${server.url}/admin/preferences/`);
    await second.getByTestId('color-picker').waitFor();
    await first.getByTestId('user-menu').click();
    await first.getByTestId('logout').click();
    await first.waitForURL(`${server.url}/login/`);
    await second.waitForURL(`${server.url}/login/`, { timeout: 15_000 });
    await second.getByTestId('login-submit').waitFor();
    await context.close();
  });
});
