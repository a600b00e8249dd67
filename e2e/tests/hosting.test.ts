import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CertificatePair, selfSignedCertificate } from '../../scripts/test-support/self-signed-certificate';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { closeWithDoubleEscape, tabStops } from '../support/keyboard';
import { type Credentials, loginNoCaptcha, VIEWER } from '../support/panel';
import type { PanelServer } from '../support/server';
import { pageSession } from '../support/session';
import { pageSuite } from '../support/suite';
import {
  apiAnswer,
  apiFromPage,
  dialog,
  drawnByTheApp,
  fieldError,
  holdCalls,
  tableRows,
  titleOnceSet,
  waitInvalid,
  waitNames,
  waitToast,
} from '../support/ui';

const REDIRECTIONS = '[data-testid="hosting-redirection-list"] tbody tr[data-name]';
const SITES = '[data-testid="hosting-site-list"] tbody tr[data-name]';

/** Logs in and opens demo.test's hosting overview through the side menu (no id guessed). */
async function openOverview(page: Page, baseUrl: string, credentials?: Credentials): Promise<void> {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-hosting').click();
  await page.waitForURL(/\/admin\/\d+\/service\/$/);
  await page.getByTestId('hosting-info').waitFor();
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** A self-signed certificate and its key for `host`, made by openssl (argument array, no shell). */
async function selfSigned(host: string): Promise<CertificatePair> {
  const dir = mkdtempSync(path.join(tmpdir(), 'panel247-e2e-cert-'));
  try {
    return await selfSignedCertificate({
      dir,
      name: 'site',
      subject: `/CN=${host}`,
      rsa: true,
      extra: ['-addext', `subjectAltName=DNS:${host}`],
      timeout: 30_000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!chromiumAvailable())('Hosting overview and sites', () => {
  const suite = pageSuite(
    {
      captcha: 'none',
      // A second PHP version (configuration only: the embedded web driver writes files, no daemon).
      env: { PANEL_WEB_PHP_SOCKETS: '8.2=/run/php/panel247-8.2,8.3=/run/php/panel247-8.3' },
    },
    (page, server) => openOverview(page, server.url),
  );
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let overviewUrl: string;
  let sitesUrl: string;
  let serviceId: string;

  async function freshOverview(): Promise<Page> {
    await page.goto(overviewUrl);
    await page.getByTestId('hosting-info').waitFor();
    await page.getByTestId('hosting-redirection-list').waitFor();
    return page;
  }

  async function freshSites(): Promise<Page> {
    await page.goto(sitesUrl);
    await page.locator(SITES).first().waitFor();
    return page;
  }

  /** Every redirection and site (but the main one) of the service goes, so each test starts clean. */
  async function cleanUp(): Promise<void> {
    const redirections = await apiFromPage<{ data: { redirection: { id: number }[] } }>(
      page,
      `service/${serviceId}/redirection/list/`,
    );
    for (const { id } of redirections.data.redirection) {
      await apiFromPage(page, `service/${serviceId}/redirection/${id}/delete/`, '');
    }
    const sites = await apiFromPage<{ data: { subdomains: { id: number; eliminable: boolean }[] } }>(
      page,
      `service/${serviceId}/subdomain/list/`,
    );
    for (const { id, eliminable } of sites.data.subdomains) {
      if (eliminable) await apiFromPage(page, `service/${serviceId}/subdomain/${id}/delete/`, '');
    }
    await apiFromPage(page, `service/${serviceId}/parking/disable/`, '');
    await apiFromPage(page, `service/${serviceId}/php/`, 'phpVersion=default');
  }

  beforeAll(() => {
    ({ server, browser, page } = suite);
    overviewUrl = page.url();
    serviceId = /\/admin\/(\d+)\//.exec(overviewUrl)?.[1] ?? '';
    sitesUrl = `${server.url}/admin/${serviceId}/service/subdomain/`;
  });

  it('shows the information and web resources cards, with usage in the spec units', async () => {
    await freshOverview();
    expect(await titleOnceSet(page, 'Hosting · demo.test / Panel247 Demo Hosting')).toBe(
      'Hosting · demo.test / Panel247 Demo Hosting',
    );
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('demo.test');
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toBe(
      'Escritorio/demo.test/Hosting',
    );
    const php = page.getByTestId('hosting-php-select');
    expect(await php.inputValue()).toBe('default');
    expect(await php.locator('option').allTextContents()).toEqual(['Por defecto (PHP 8.2)', 'PHP 8.2', 'PHP 8.3']);
    expect(await page.getByTestId('hosting-parking-switch').isChecked()).toBe(false);

    // usage: bytes in powers of 1024 against the plan's 10 GB and 1 GB, with the percent
    expect(await page.getByTestId('hosting-web-space').textContent()).toMatch(
      /^\d+(,\d{1,2})? (B|KB|MB) de 10 GB \(\d+,\d{2} %\)$/,
    );
    expect(await page.getByTestId('hosting-database-space').textContent()).toMatch(
      /^\d+(,\d{1,2})? (B|KB|MB) de 1 GB \(\d+,\d{2} %\)$/,
    );
    await page.getByTestId('hosting-ftp-host').waitFor();
    expect(await page.getByTestId('hosting-ftp-host').textContent()).toBe('ftp.demo.test');
    expect(await page.getByTestId('hosting-database-host').textContent()).toBe('bbdd.demo.test');
    await page.getByTestId('hosting-webftp').waitFor();
    expect(await page.getByTestId('hosting-webftp').getAttribute('aria-label')).toBe('Abrir WebFTP como web@demo.test');
    await page.getByText('Todavía no hay redirecciones.').waitFor();
    await expectNoSeriousViolations(page);
  });

  it('shows a skeleton while the redirections load slowly', async () => {
    const release = await holdCalls(page, '**/p247/service/*/redirection/list/**', (route) =>
      route.fulfill(apiAnswer({ redirection: [] })),
    );
    try {
      // drawn by the server, the page would already hold the redirections' first page
      await drawnByTheApp(page);
      await page.goto(overviewUrl);
      await page.getByTestId('hosting-redirection-skeleton').waitFor();
      release();
      await page.getByText('Todavía no hay redirecciones.').waitFor();
      expect(await page.getByTestId('hosting-redirection-skeleton').count()).toBe(0);
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
  });

  it('changes the PHP version and keeps it after a reload', async () => {
    await freshOverview();
    await page.getByTestId('hosting-php-select').selectOption('8.3');
    await waitToast(page, 'Versión de PHP guardada');
    await page.reload();
    await page.getByTestId('hosting-info').waitFor();
    expect(await page.getByTestId('hosting-php-select').inputValue()).toBe('8.3');
    const answer = await apiFromPage<{ data: { service: { phpversion: string } } }>(page, `service/${serviceId}/`);
    expect(answer.data.service.phpversion).toBe('8.3');
    await page.getByTestId('hosting-php-select').selectOption('default');
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="hosting-php-select"]') as HTMLSelectElement | null)?.disabled === false,
    );
    await cleanUp();
  });

  it('creates, edits and deletes redirections (a frame one too), with the server field errors per field', async () => {
    await freshOverview();
    await page.getByTestId('hosting-redirection-create').click();
    const create = dialog(page, 'hosting-redirection-modal');
    await create.waitFor();
    expect(await create.getByTestId('hosting-redirection-host').locator('option').allTextContents()).toEqual([
      'demo.test',
    ]);
    // the frame fields only show for a frame
    expect(await create.getByTestId('hosting-frame-fields').count()).toBe(0);
    await create.getByTestId('hosting-redirection-submit').click();
    expect(await fieldError(create.getByTestId('hosting-redirection-url-input'))).toBe('Este campo es obligatorio');
    await create.getByTestId('hosting-redirection-path').fill('offers');
    expect(await create.getByTestId('hosting-redirection-origin').textContent()).toBe('Origen: demo.test/offers');
    await create.getByTestId('hosting-redirection-url-input').fill('https://shop.example.com/offers');
    await expectNoSeriousViolations(page);
    await create.getByTestId('hosting-redirection-submit').click();
    await waitToast(page, 'Redirección creada');
    await create.waitFor({ state: 'detached' });
    await waitNames(page, REDIRECTIONS, ['demo.test/offers']);
    expect(await tableRows(page, REDIRECTIONS, 3)).toEqual([
      'demo.test/offers | https://shop.example.com/offers | 301 permanente',
    ]);

    // the same path again: the server's error lands under the path, and what was typed stays
    await page.getByTestId('hosting-redirection-create').click();
    await create.waitFor();
    await create.getByTestId('hosting-redirection-path').fill('/offers/');
    await create.getByTestId('hosting-redirection-url-input').fill('https://example.org/');
    await create.getByTestId('hosting-redirection-submit').click();
    await waitInvalid(page, 'hosting-redirection-modal', 'hosting-redirection-path');
    expect(await fieldError(create.getByTestId('hosting-redirection-path'))).toBe(
      'Ya existe una redirección para ese recurso',
    );
    expect(await create.getByTestId('hosting-redirection-url-input').inputValue()).toBe('https://example.org/');

    // a frame redirection with its page texts
    await create.getByTestId('hosting-redirection-path').fill('promo');
    await create.getByRole('radio', { name: 'Marco (frame)' }).check();
    await create.getByTestId('hosting-iframe-title').fill('Promo <b>page</b>');
    await create.getByTestId('hosting-iframe-description').fill('Our promotions');
    await create.getByTestId('hosting-iframe-keywords').fill('promo, offers');
    await expectNoSeriousViolations(page);
    await create.getByTestId('hosting-redirection-submit').click();
    await waitToast(page, 'Redirección creada');
    await create.waitFor({ state: 'detached' });
    await waitNames(page, REDIRECTIONS, ['demo.test/offers', 'demo.test/promo']);
    const listed = await apiFromPage<{ data: { redirection: { recurso: string; iframeTitle: string }[] } }>(
      page,
      `service/${serviceId}/redirection/list/`,
    );
    expect(listed.data.redirection.find((item) => item.recurso === 'promo')?.iframeTitle).toBe('Promo <b>page</b>');

    // edit: origin fixed; 301 → 302 and a new URL; a bad URL is refused first
    const offers = page.locator(`${REDIRECTIONS}[data-name="demo.test/offers"]`);
    await offers.getByTestId('hosting-redirection-edit').click();
    const edit = dialog(page, 'hosting-redirection-modal');
    await edit.waitFor();
    expect(await edit.textContent()).toContain('Origen: demo.test/offers');
    expect(await edit.getByTestId('hosting-redirection-path').count()).toBe(0);
    await edit.getByTestId('hosting-redirection-url-input').fill('javascript:alert(1)');
    await edit.getByTestId('hosting-redirection-submit').click();
    expect(await fieldError(edit.getByTestId('hosting-redirection-url-input'))).toMatch(/^Introduce una URL/);
    await edit.getByTestId('hosting-redirection-url-input').fill('https://shop.example.com/sale');
    await edit.getByRole('radio', { name: '302 temporal' }).check();
    await edit.getByTestId('hosting-redirection-submit').click();
    await waitToast(page, 'Redirección guardada');
    await edit.waitFor({ state: 'detached' });
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.includes('302') === true,
      `${REDIRECTIONS}[data-name="demo.test/offers"] [data-testid="hosting-redirection-type"]`,
    );
    expect(await tableRows(page, `${REDIRECTIONS}[data-name="demo.test/offers"]`, 3)).toEqual([
      'demo.test/offers | https://shop.example.com/sale | 302 temporal',
    ]);

    // the frame's texts come back in its edit form
    await page.locator(`${REDIRECTIONS}[data-name="demo.test/promo"]`).getByTestId('hosting-redirection-edit').click();
    await edit.waitFor();
    expect(await edit.getByTestId('hosting-iframe-title').inputValue()).toBe('Promo <b>page</b>');
    expect(await edit.getByTestId('hosting-iframe-keywords').inputValue()).toBe('promo, offers');
    await edit.getByRole('button', { name: 'Cancelar' }).click();
    await edit.waitFor({ state: 'detached' });

    // the filter, then delete both after confirming
    await page.getByTestId('hosting-redirection-filter').fill('FRAME');
    await waitNames(page, REDIRECTIONS, ['demo.test/promo']);
    await page.getByTestId('hosting-redirection-filter').fill('');
    for (const name of ['demo.test/promo', 'demo.test/offers']) {
      await page.locator(`${REDIRECTIONS}[data-name="${name}"]`).getByTestId('hosting-redirection-delete').click();
      const confirm = dialog(page, 'hosting-redirection-delete-modal');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(name);
      await confirm.getByTestId('hosting-redirection-delete-modal-confirm').click();
      await waitToast(page, 'Redirección eliminada');
      await confirm.waitFor({ state: 'detached' });
    }
    await waitNames(page, REDIRECTIONS, []);
    await cleanUp();
  });

  it('pages the redirections 10 at a time only above 10', async () => {
    for (let i = 1; i <= 11; i++) {
      await apiFromPage(
        page,
        `service/${serviceId}/redirection/create/`,
        `subDomain=&recurso=page${String(i).padStart(2, '0')}&urlRedir=https%3A%2F%2Fexample.com%2F&redirType=301`,
      );
    }
    try {
      await freshOverview();
      await page.locator(REDIRECTIONS).first().waitFor();
      expect(await page.locator(REDIRECTIONS).count()).toBe(10);
      expect(await page.getByTestId('hosting-redirection-pagination-text').textContent()).toBe('1–10 de 11');
      await page.getByRole('button', { name: 'Página 2' }).click();
      await waitNames(page, REDIRECTIONS, ['demo.test/page11']);
    } finally {
      await cleanUp();
    }
  });

  it('turns parking on after confirming: only the toggle and the redirections stay; then off again', async () => {
    await freshOverview();
    const toggle = page.getByTestId('hosting-parking-switch');
    await toggle.click();
    const confirm = dialog(page, 'hosting-parking-modal');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('¿Activar el parking de demo.test?');
    await expectNoSeriousViolations(page);
    // cancel changes nothing
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(false);

    await toggle.click();
    await confirm.getByTestId('hosting-parking-modal-confirm').click();
    await waitToast(page, 'Parking activado');
    await confirm.waitFor({ state: 'detached' });
    await page.getByTestId('hosting-php-select').waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(true);
    for (const id of ['hosting-resources', 'hosting-builder', 'hosting-error-log']) {
      expect(await page.getByTestId(id).count(), id).toBe(0);
    }
    expect(await page.getByTestId('hosting-redirection-list').count()).toBe(1);
    await expectNoSeriousViolations(page);

    await toggle.click();
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('¿Desactivar el parking de demo.test?');
    await confirm.getByTestId('hosting-parking-modal-confirm').click();
    await waitToast(page, 'Parking desactivado');
    await page.getByTestId('hosting-resources').waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByTestId('hosting-php-select').isEnabled()).toBe(true);
  });

  it('lists the sites and creates one with SSL, whose data it then shows; the key is never shown back', async () => {
    await freshSites();
    expect(await titleOnceSet(page, 'Sitios · demo.test / Panel247 Demo Hosting')).toBe(
      'Sitios · demo.test / Panel247 Demo Hosting',
    );
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toBe(
      'Escritorio/demo.test/Hosting/Sitios',
    );
    expect(await tableRows(page, SITES, 3)).toEqual(['demo.test | / | Sin SSL']);
    // the main site cannot be deleted
    expect(await page.locator(SITES).getByTestId('hosting-site-delete').count()).toBe(0);
    await expectNoSeriousViolations(page);

    const { cert, key } = await selfSigned('secure.demo.test');
    await page.getByTestId('hosting-site-create').click();
    const create = dialog(page, 'hosting-site-modal');
    await create.waitFor();
    expect(await create.textContent()).toContain('.demo.test');
    await create.getByTestId('hosting-site-submit').click();
    expect(await fieldError(create.getByTestId('hosting-site-subdomain'))).toBe('Este campo es obligatorio');
    await create.getByTestId('hosting-site-subdomain').fill('secure');
    await create.getByTestId('hosting-site-folder-input').fill('/secure');
    await create.getByTestId('hosting-site-ssl-manual').check();
    await create.getByTestId('hosting-site-cert').fill(cert);
    // a certificate without its key is refused before it is sent
    await create.getByTestId('hosting-site-submit').click();
    expect(await fieldError(create.getByTestId('hosting-site-key'))).toBe('Este campo es obligatorio');
    await create.getByTestId('hosting-site-key').fill(key);
    await expectNoSeriousViolations(page);
    await create.getByTestId('hosting-site-submit').click();
    await waitToast(page, 'Subdominio creado');
    await create.waitFor({ state: 'detached' });
    await waitNames(page, SITES, ['demo.test', 'secure.demo.test']);
    const secure = page.locator(`${SITES}[data-name="secure.demo.test"]`);
    expect((await tableRows(page, `${SITES}[data-name="secure.demo.test"]`, 3))[0]).toMatch(
      /^secure\.demo\.test \| \/secure \| SSL activosecure\.demo\.test · caduca el /,
    );

    await secure.getByTestId('hosting-site-ssl-data').click();
    const ssl = dialog(page, 'hosting-ssl-modal');
    await ssl.waitFor();
    expect(await ssl.getByTestId('hosting-ssl-names').textContent()).toBe('secure.demo.test');
    expect(await ssl.getByTestId('hosting-ssl-key').textContent()).toBe('Clave instalada');
    expect(await ssl.textContent()).toContain('CN=secure.demo.test');
    expect(await ssl.textContent()).not.toContain('PRIVATE KEY');
    await expectNoSeriousViolations(page);
    await ssl.getByRole('button', { name: 'Cerrar' }).click();
    await ssl.waitFor({ state: 'detached' });

    // edit: the key field is empty ("keep"); saving a new folder keeps the certificate and key
    await secure.getByTestId('hosting-site-edit').click();
    const edit = dialog(page, 'hosting-site-modal');
    await edit.waitFor();
    expect(await edit.getByTestId('hosting-site-host').textContent()).toBe('secure.demo.test');
    expect(await edit.getByTestId('hosting-site-subdomain').count()).toBe(0);
    expect(await edit.getByTestId('hosting-site-key').inputValue()).toBe('');
    expect(await edit.textContent()).toContain('Hay una clave instalada: déjalo vacío para conservarla.');
    expect(await edit.getByTestId('hosting-site-cert').inputValue()).toContain('BEGIN CERTIFICATE');
    await edit.getByTestId('hosting-site-folder-input').fill('/secure/www');
    await edit.getByTestId('hosting-site-submit').click();
    await waitToast(page, 'Subdominio guardado');
    await edit.waitFor({ state: 'detached' });
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent === '/secure/www',
      `${SITES}[data-name="secure.demo.test"] [data-testid="hosting-site-folder"]`,
    );
    const one = await apiFromPage<{
      data: { subdomains: { subdominio: string; ssl: { enabled: boolean; cert: { key: string }; info: unknown } }[] };
    }>(page, `service/${serviceId}/subdomain/list/`);
    const stored = one.data.subdomains.find((item) => item.subdominio === 'secure');
    expect(stored?.ssl.enabled).toBe(true);
    expect(stored?.ssl.cert.key).toBe('');
    expect(stored?.ssl.info).toMatchObject({ keyInstalled: true, names: ['secure.demo.test'] });
  });

  it('refuses a hostile folder with a field error, and keeps what was typed', async () => {
    // a folder whose existing part leaves the home through a symbolic link (only the server can tell)
    const home = path.join(server.dataDir, 'www', 'demo.test');
    mkdirSync(home, { recursive: true });
    symlinkSync('/etc', path.join(home, 'escape'));
    await freshSites();
    await page.getByTestId('hosting-site-create').click();
    const create = dialog(page, 'hosting-site-modal');
    await create.waitFor();
    await create.getByTestId('hosting-site-subdomain').fill('evil');
    const folder = create.getByTestId('hosting-site-folder-input');
    await folder.fill('../../etc');
    await create.getByTestId('hosting-site-submit').click();
    expect(await fieldError(folder)).toMatch(/^Usa nombres de carpeta/);
    await folder.fill('/escape/www');
    await create.getByTestId('hosting-site-submit').click();
    await waitInvalid(page, 'hosting-site-modal', 'hosting-site-folder-input');
    expect(await fieldError(folder)).toBe('La carpeta sale del alojamiento');
    expect(await create.getByTestId('hosting-site-subdomain').inputValue()).toBe('evil');
    expect(await folder.inputValue()).toBe('/escape/www');
    await expectNoSeriousViolations(page);
    // two Escapes close it; nothing was created
    await closeWithDoubleEscape(page, create);
    await waitNames(page, SITES, ['demo.test', 'secure.demo.test']);
  });

  it('deletes a site after confirming, with the server message', async () => {
    await freshSites();
    const secure = page.locator(`${SITES}[data-name="secure.demo.test"]`);
    await secure.getByTestId('hosting-site-delete').click();
    const confirm = dialog(page, 'hosting-site-delete-modal');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('secure.demo.test');
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'detached' });
    await secure.getByTestId('hosting-site-delete').click();
    await confirm.getByTestId('hosting-site-delete-modal-confirm').click();
    await waitToast(page, 'Subdominio eliminado');
    await waitNames(page, SITES, ['demo.test']);
    await cleanUp();
  });

  it('opens the create dialog with a given subdomain locked', async () => {
    await page.goto(`${sitesUrl}?subdomain=shop`);
    const create = dialog(page, 'hosting-site-modal');
    await create.waitFor();
    const sub = create.getByTestId('hosting-site-subdomain');
    expect(await sub.inputValue()).toBe('shop');
    expect(await sub.getAttribute('readonly')).not.toBeNull();
    await create.getByRole('button', { name: 'Cancelar' }).click();
    await create.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
  });

  it('is keyboard reachable: parking asks on Space with Cancel focused; the site dialog opens on Enter', async () => {
    await freshOverview();
    await page.getByTestId('hosting-parking-switch').focus();
    await page.keyboard.press('Space');
    const confirm = dialog(page, 'hosting-parking-modal');
    await confirm.waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancelar');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.getByTestId('hosting-parking-switch').isChecked()).toBe(false);
    // the form controls of the information card in order
    await page.getByTestId('hosting-parking-switch').focus();
    expect(await tabStops(page, 4)).toEqual([
      'select:Versión de PHP',
      'select:Sitio para el creador de webs',
      'button:Abrir el creador de webs',
      'button:Ver el registro de errores',
    ]);

    await freshSites();
    await page.getByTestId('hosting-site-filter').focus();
    expect(await tabStops(page, 1)).toEqual(['button:Datos SSL de demo.test']);
    await page.getByTestId('hosting-site-create').focus();
    await page.keyboard.press('Enter');
    const create = dialog(page, 'hosting-site-modal');
    await create.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'hosting-site-subdomain');
    await page.keyboard.type('keys');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await create.getByTestId('hosting-site-subdomain').inputValue()).toBe('keys');
    await closeWithDoubleEscape(page, create);
  });

  it("opens WebFTP from the overview as the service's main FTP account (a posted one-time form)", async () => {
    await freshOverview();
    let posted = '';
    await suite.context.route('**/webftp/**', async (route) => {
      posted = route.request().postData() ?? '';
      await route.fulfill({ contentType: 'text/html', body: '<title>WebFTP</title><p>webftp</p>' });
    });
    try {
      await page.getByTestId('hosting-webftp').waitFor();
      const [tab] = await Promise.all([suite.context.waitForEvent('page'), page.getByTestId('hosting-webftp').click()]);
      await tab.getByText('webftp').waitFor();
      const fields = new URLSearchParams(posted);
      expect(fields.get('user')).toBe('web@demo.test');
      expect(fields.get('token')?.length).toBeGreaterThan(20);
      expect([...fields.keys()].some((key) => /pass/i.test(key))).toBe(false);
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    } finally {
      await suite.context.unrouteAll({ behavior: 'wait' });
    }
  });

  it('shows the error log: an empty state, then the lines with their source in a keyboard-scrollable box', async () => {
    let logs: { source: string; line: string }[] = [];
    await page.route('**/p247/service/*/logerror/**', (route) => route.fulfill(apiAnswer({ logs })));
    try {
      await freshOverview();
      await page.getByTestId('hosting-error-log').click();
      const viewer = dialog(page, 'hosting-log-modal');
      await viewer.waitFor();
      await viewer.getByText('No hay errores registrados.').waitFor();
      logs = [
        { source: 'nginx', line: '2026/01/01 10:00:00 [error] 12#12: *1 open() "/x" failed (2: No such file)' },
        { source: 'php', line: 'PHP Fatal error:  Uncaught Error: Call to undefined function boom() in /index.php:3' },
      ];
      await viewer.getByTestId('hosting-log-refresh').click();
      const lines = viewer.getByTestId('hosting-log-lines');
      await lines.waitFor();
      expect(await lines.locator('li').evaluateAll((items) => items.map((item) => item.textContent))).toEqual([
        `nginx${logs[0]?.line}`,
        `php${logs[1]?.line}`,
      ]);
      expect(await lines.getAttribute('tabindex')).toBe('0');
      expect(
        await lines.evaluate((element) => getComputedStyle(element.querySelector('p') as Element).fontFamily),
      ).toMatch(/mono/i);
      await expectNoSeriousViolations(page);
      // one Escape keeps it open, two close it
      await lines.focus();
      await page.keyboard.press('Escape');
      await page.waitForTimeout(300);
      expect(await viewer.isVisible()).toBe(true);
      await closeWithDoubleEscape(page, viewer);
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
  });

  it('opens the site builder on the chosen site in a new tab (its URL carries the token)', async () => {
    await apiFromPage(page, `service/${serviceId}/subdomain/create/`, 'subDomain=blog&folder=blog&SSLActive=0');
    let posted = '';
    await page.route('**/p247/service/*/webconstructor/**', (route) => route.fulfill(apiAnswer({ selected: 'blog' })));
    await page.route('**/p247/service/*/webcontructorlogin/**', async (route) => {
      posted = route.request().postData() ?? '';
      await route.fulfill(apiAnswer({ url: `${server.url}/builder-stub/?token=signed-token` }));
    });
    await suite.context.route('**/builder-stub/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Builder</title><p>builder</p>' }),
    );
    try {
      await freshOverview();
      const site = page.getByTestId('hosting-builder-site');
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-testid="hosting-builder-site"]') as HTMLSelectElement | null)?.value ===
          'blog',
      );
      expect(await site.locator('option').allTextContents()).toEqual(['demo.test', 'blog.demo.test']);
      await site.selectOption('*');
      const [tab] = await Promise.all([
        suite.context.waitForEvent('page'),
        page.getByTestId('hosting-builder-open').click(),
      ]);
      await tab.waitForURL(/\/builder-stub\/\?token=signed-token$/);
      await tab.getByText('builder').waitFor();
      expect(new URLSearchParams(posted).get('subdomain')).toBe('*');
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
      await suite.context.unrouteAll({ behavior: 'wait' });
      await cleanUp();
    }
  });

  it('with the real server: the error log and the site builder answer', async () => {
    await freshOverview();
    await page.getByTestId('hosting-error-log').click();
    const viewer = dialog(page, 'hosting-log-modal');
    await viewer.waitFor();
    await viewer.locator('[data-testid="hosting-log-lines"], [data-testid="hosting-log-empty"]').first().waitFor();
    expect(await viewer.getByTestId('hosting-log-error').count()).toBe(0);
    await viewer.getByRole('button', { name: 'Cerrar' }).last().click();
    await viewer.waitFor({ state: 'detached' });

    // whatever host the brand's builder has, the tab's request is answered here
    await suite.context.route(
      (url) => !url.href.startsWith(server.url),
      (route) => route.fulfill({ contentType: 'text/html', body: '<p>builder</p>' }),
    );
    try {
      const [tab] = await Promise.all([
        suite.context.waitForEvent('page'),
        page.getByTestId('hosting-builder-open').click(),
      ]);
      await tab.waitForURL((url) => url.href !== 'about:blank');
      expect(tab.url()).toMatch(/token/i);
      await tab.close();
    } finally {
      await suite.context.unrouteAll({ behavior: 'wait' });
    }
  });

  it('an unknown service id shows the not-found view', async () => {
    await page.goto(`${server.url}/admin/999999/service/`);
    await page.getByTestId('not-found').waitFor();
    await page.goto(`${server.url}/admin/999999/service/subdomain/`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('sites-view').count()).toBe(0);
  });

  it('installs the guestbook through the four steps into a new database, then refuses the same folder again', async () => {
    type Databases = { data: { ddbb: { id: number; bbdd: string }[]; limit: number } };
    const before = await apiFromPage<Databases>(page, `service/${serviceId}/ddbb/list/`);
    const home = path.join(server.dataDir, 'www', 'demo.test');
    const installer = dialog(page, 'installer-modal');
    const next = () => installer.getByTestId('installer-next').click();
    const activeStep = () => installer.locator('[aria-current="step"]').getAttribute('data-testid');
    let created: number | undefined;
    try {
      await freshSites();
      await page.getByTestId('hosting-install').click();
      await installer.waitFor();

      // step 0: the site
      expect(await activeStep()).toBe('installer-step-0');
      await installer.getByRole('radio', { name: 'demo.test' }).waitFor();
      expect(await installer.getByTestId('installer-back').count()).toBe(0);
      await expectNoSeriousViolations(page);
      await installer.getByRole('radio', { name: 'demo.test' }).check();
      await next();

      // step 1: the catalogue, featured first, with a debounced filter and the size in MB
      const guestbook = installer.getByRole('radio', { name: /Guestbook/ });
      await guestbook.waitFor();
      expect(await activeStep()).toBe('installer-step-1');
      const names = () =>
        installer
          .getByTestId('installer-app')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-name')));
      expect(await names()).toEqual(['guestbook', 'landing-page']);
      expect(await installer.getByTestId('installer-app-meta').first().textContent()).toMatch(
        /^Libros de visitas · PHP · \d+,\d{2} MB$/,
      );
      await installer.getByTestId('installer-app-filter').fill('landing');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="installer-app"]').length === 1);
      expect(await names()).toEqual(['landing-page']);
      await installer.getByTestId('installer-app-filter').fill('');
      await installer.getByTestId('installer-app-category').selectOption('guestbooks');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="installer-app"]').length === 1);
      expect(await names()).toEqual(['guestbook']);
      await expectNoSeriousViolations(page);
      await guestbook.check();
      await next();

      // step 2: the service has no database yet, so a new one is forced
      const newDatabase = installer.getByTestId('installer-new-database');
      await newDatabase.waitFor();
      expect(before.data.ddbb).toEqual([]);
      expect(await newDatabase.isChecked()).toBe(true);
      expect(await newDatabase.isDisabled()).toBe(true);
      await installer.getByTestId('installer-subpath').fill('guestbook');
      expect(await installer.getByTestId('installer-target').textContent()).toBe(
        'Se instalará en la carpeta /guestbook y responderá en http://demo.test/guestbook/',
      );
      await expectNoSeriousViolations(page);
      // back one step and forward again keeps the choices
      await installer.getByTestId('installer-back').click();
      expect(await guestbook.isChecked()).toBe(true);
      await next();
      expect(await installer.getByTestId('installer-subpath').inputValue()).toBe('guestbook');
      await next();

      // step 3: the application's questions; the required ones are enforced before sending
      await installer.getByTestId('installer-cfg-admin_email').waitFor();
      expect(await activeStep()).toBe('installer-step-3');
      // the package's default answers in the user's language
      expect(await installer.getByTestId('installer-cfg-site_title').inputValue()).toBe('Mi libro de visitas');
      expect(await installer.getByTestId('installer-cfg-theme').count()).toBe(0);
      await installer.getByTestId('installer-install').click();
      expect(await fieldError(installer.getByTestId('installer-cfg-admin_email'))).toBe('Este campo es obligatorio');
      await installer.getByTestId('installer-cfg-site_title').fill('Libro de <b>visitas</b>');
      await installer.getByTestId('installer-cfg-admin_email').fill('admin@demo.test');
      await installer.getByTestId('installer-cfg-admin_password-generate').click();
      await installer.getByTestId('installer-cfg-moderate').check();
      await expectNoSeriousViolations(page);
      await installer.getByTestId('installer-install').click();

      // the job's progress until it is done, with the address of the new application
      const success = installer.getByTestId('installer-success');
      await success.waitFor({ timeout: 30_000 });
      expect(await success.getByTestId('installer-success-url').getAttribute('href')).toBe(
        'http://demo.test/guestbook/',
      );
      expect(await success.getByTestId('installer-success-folder').textContent()).toBe('/guestbook');
      await expectNoSeriousViolations(page);

      // the files are in the site's folder, configured with the answers and the new database
      const after = await apiFromPage<Databases>(page, `service/${serviceId}/ddbb/list/`);
      expect(after.data.ddbb).toHaveLength(before.data.ddbb.length + 1);
      const database = after.data.ddbb.at(-1);
      created = database?.id;
      for (const file of ['index.php', 'admin.php', 'lib.php', 'style.css', 'config.php']) {
        expect(existsSync(path.join(home, 'guestbook', file)), file).toBe(true);
      }
      const config = readFileSync(path.join(home, 'guestbook', 'config.php'), 'utf8');
      expect(config).toContain("const GB_SITE_TITLE = 'Libro de <b>visitas</b>';");
      expect(config).toContain("const GB_ADMIN_EMAIL = 'admin@demo.test';");
      expect(config).toContain("const GB_MODERATE = '1';");
      expect(config).toContain(`const GB_DB_NAME = '${database?.bbdd}';`);
      await success.getByTestId('installer-close').click();
      await installer.waitFor({ state: 'detached' });

      // from the main site's row: step 0 is skipped, the database just made is preselected, and
      // the same folder again comes back as a field error on step 2
      await page.locator(`${SITES}[data-name="demo.test"]`).getByTestId('hosting-site-install').click();
      await installer.waitFor();
      expect(await activeStep()).toBe('installer-step-1');
      expect(await installer.getByTestId('installer-summary').textContent()).toBe('demo.test');
      await guestbook.check();
      await next();
      await newDatabase.waitFor();
      expect(await newDatabase.isChecked()).toBe(false);
      expect(await installer.getByTestId('installer-database-select').inputValue()).toBe(String(created));
      await installer.getByTestId('installer-subpath').fill('/guestbook/');
      await next();
      await installer.getByTestId('installer-cfg-admin_email').fill('admin@demo.test');
      await installer.getByTestId('installer-cfg-admin_password-generate').click();
      await installer.getByTestId('installer-install').click();
      await waitInvalid(page, 'installer-modal', 'installer-subpath');
      expect(await activeStep()).toBe('installer-step-2');
      expect(await fieldError(installer.getByTestId('installer-subpath'))).toBe(
        'La carpeta de destino ya tiene archivos: elige otra ruta',
      );
      await expectNoSeriousViolations(page);

      // a job that fails shows its name and message in the error dialog (the job call answered here)
      await page.route('**/p247/job/*/', (route) =>
        route.fulfill(
          apiAnswer({
            job: {
              id: route.request().url().split('/').at(-2),
              kind: 'installapp',
              status: 'failed',
              progress: 60,
              result: null,
              error: { name: 'No se ha podido instalar la aplicación', message: 'Sin espacio en el disco.' },
            },
          }),
        ),
      );
      await installer.getByTestId('installer-subpath').fill('guestbook2');
      await next();
      await installer.getByTestId('installer-install').click();
      const failure = dialog(page, 'installer-error-modal');
      await failure.waitFor();
      expect(await failure.getByRole('heading').textContent()).toBe('No se ha podido instalar la aplicación');
      expect(await failure.getByTestId('installer-error-message').textContent()).toBe('Sin espacio en el disco.');
      await expectNoSeriousViolations(page);
      await failure.getByRole('button', { name: 'Aceptar' }).click();
      await failure.waitFor({ state: 'detached' });
      await installer.getByTestId('installer-install').waitFor();
      // two Escapes close it; reopened, it starts afresh: step 0, with the only site chosen as at
      // any first opening (nothing else to choose)
      await closeWithDoubleEscape(page, installer);
      await page.getByTestId('hosting-install').click();
      await installer.getByRole('radio', { name: 'demo.test' }).waitFor();
      expect(await activeStep()).toBe('installer-step-0');
      await expect.poll(() => installer.getByRole('radio', { name: 'demo.test' }).isChecked()).toBe(true);
      await installer.getByRole('button', { name: 'Cancelar' }).click();
      await installer.waitFor({ state: 'detached' });
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
      if (created) await apiFromPage(page, `service/${serviceId}/ddbb/${created}/delete/`, '');
      await cleanUp();
    }
  });

  it('is keyboard driven: each step takes the focus, Space picks, Enter moves on, two Escapes close it', async () => {
    await freshSites();
    const installer = dialog(page, 'installer-modal');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    await page.getByTestId('hosting-install').focus();
    await page.keyboard.press('Enter');
    await installer.waitFor();
    // step 0: the first site has the focus; Space picks it, Enter goes on
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'installer-site');
    await page.keyboard.press('Space');
    expect(await installer.getByRole('radio', { name: 'demo.test' }).isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    // step 1: the filter has it; then the category, then the applications
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'installer-app-filter');
    await page.keyboard.type('guest');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="installer-app"]').length === 1);
    expect(await tabStops(page, 2)).toEqual(['select:Categoría', 'input:Guestbook1.0.0Destacada']);
    await page.keyboard.press('Space');
    expect(await installer.getByRole('radio', { name: /Guestbook/ }).isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    // step 2: the path
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'installer-subpath');
    await page.keyboard.type('kb');
    await page.keyboard.press('Enter');
    // step 3: the first question; one Escape keeps what was typed, two close
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'installer-cfg-site_title',
    );
    expect(await focused()).toBe('installer-cfg-site_title');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await installer.isVisible()).toBe(true);
    await closeWithDoubleEscape(page, installer);
  });

  describe('read-only user', () => {
    const viewer = pageSession(
      () => browser,
      (viewerPage) => openOverview(viewerPage, server.url, VIEWER),
    );

    it('sees the overview and the sites without any action', async () => {
      const p = viewer.page;
      await p.getByTestId('hosting-redirection-list').waitFor();
      expect(await p.getByTestId('hosting-parking-switch').count()).toBe(0);
      expect(await p.getByTestId('hosting-parking-status').textContent()).toBe('ParkingDesactivado');
      expect(await p.getByTestId('hosting-php-select').isDisabled()).toBe(true);
      for (const id of ['hosting-builder', 'hosting-redirection-create', 'hosting-redirection-edit']) {
        expect(await p.getByTestId(id).count(), id).toBe(0);
      }
      await expectNoSeriousViolations(p);

      await p.getByTestId('side-menu').getByTestId('menu-item-sites').click();
      await p.waitForURL(/\/service\/subdomain\/$/);
      await p.locator(SITES).first().waitFor();
      for (const id of [
        'hosting-site-create',
        'hosting-site-edit',
        'hosting-site-delete',
        'hosting-install',
        'hosting-site-install',
      ]) {
        expect(await p.getByTestId(id).count(), id).toBe(0);
      }
      expect(await p.getByTestId('hosting-site-ssl-data').count()).toBe(1);
      await expectNoSeriousViolations(p);
    });
  });
});
