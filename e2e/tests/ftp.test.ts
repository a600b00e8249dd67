import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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
  waitInvalid,
  waitNames,
  waitToast,
} from '../support/ui';
import { titleOnceSet } from '../support/ui.ts';

const ROWS = '[data-testid="ftp-list"] tbody tr[data-name]';

/** Logs in and opens demo.test's FTP accounts through the side menu (no id guessed). */
async function openFtp(page: Page, baseUrl: string, credentials?: Credentials): Promise<void> {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-ftp').click();
  await page.waitForURL(/\/admin\/\d+\/service\/ftp\/$/);
  await page.locator(ROWS).first().waitFor();
}

function row(page: Page, name: string) {
  return page.locator(`${ROWS}[data-name="${name}"]`);
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Opens "show password" on a row and returns the password the dialog shows. */
async function revealPassword(page: Page, name: string): Promise<string> {
  await row(page, name).getByTestId('ftp-show-password').click();
  const reveal = dialog(page, 'ftp-reveal-modal');
  await reveal.getByTestId('ftp-reveal-modal-value').waitFor();
  expect(await reveal.textContent()).toContain(name);
  expect(await reveal.getByRole('button', { name: 'Copiar la contraseña' }).count()).toBe(1);
  const password = (await reveal.getByTestId('ftp-reveal-modal-value').textContent()) ?? '';
  await reveal.getByRole('button', { name: 'Cerrar' }).click();
  await reveal.waitFor({ state: 'detached' });
  return password;
}

describe.skipIf(!chromiumAvailable())('FTP view', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openFtp(page, server.url));
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let ftpUrl: string;
  let serviceId: string;

  /** The admin's page, reloaded on demo.test's FTP accounts (one login for the whole file). */
  async function freshFtp(): Promise<Page> {
    await page.goto(ftpUrl);
    await page.locator(ROWS).first().waitFor();
    return page;
  }

  beforeAll(() => {
    ({ server, browser, page } = suite);
    ftpUrl = page.url();
    serviceId = /\/admin\/(\d+)\//.exec(ftpUrl)?.[1] ?? '';
  });

  it('lists the accounts with their folders, and the FTP server to connect to', async () => {
    await freshFtp();
    expect(await titleOnceSet(page, 'FTP · demo.test / Panel247 Demo Hosting')).toBe(
      'FTP · demo.test / Panel247 Demo Hosting',
    );
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('demo.test');
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toBe(
      'Escritorio/demo.test/Hosting/FTP',
    );
    expect(await tableRows(page, ROWS, 2)).toEqual(['blog@demo.test | /blog', 'web@demo.test | /']);
    // the main account cannot be deleted; the other can
    expect(await row(page, 'web@demo.test').getByTestId('ftp-delete').count()).toBe(0);
    expect(await row(page, 'blog@demo.test').getByTestId('ftp-delete').count()).toBe(1);
    expect(await page.getByTestId('ftp-pagination').count()).toBe(0);

    const server_ = page.getByTestId('ftp-server-table');
    await server_.waitFor();
    const data = await server_
      .locator('tr')
      .evaluateAll((trs) => trs.map((tr) => (tr.textContent ?? '').replace(/\s+/g, ' ').trim()));
    expect(data).toEqual([
      'Servidorftp.demo.test',
      'Servidor con SSLssl.demohosting.test',
      'Puerto21',
      `WebFTP${server.url}/webftp/`,
    ]);
    expect(await page.getByRole('button', { name: 'Copiar el servidor FTP', exact: true }).count()).toBe(1);
    await expectNoSeriousViolations(page);

    await page.getByTestId('ftp-filter').fill('BLOG');
    await waitNames(page, ROWS, ['blog@demo.test']);
    await page.getByTestId('ftp-filter').fill('nobody');
    await waitNames(page, ROWS, []);
    await page.getByText('Ninguna cuenta coincide con el filtro.').waitFor();
  });

  it('shows a skeleton while a slow list loads, and the empty state without rows', async () => {
    const release = await holdCalls(page, '**/p247/service/*/ftp/list/**', (route) =>
      route.fulfill(apiAnswer({ ftps: [] })),
    );
    try {
      // drawn by the server, the page would already hold the first page of rows
      await drawnByTheApp(page);
      await page.goto(ftpUrl);
      await page.getByTestId('ftp-skeleton').waitFor();
      release();
      await page.getByText('Todavía no hay cuentas FTP.').waitFor();
      expect(await page.getByTestId('ftp-skeleton').count()).toBe(0);
      await expectNoSeriousViolations(page);
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
  });

  it('creates an account: domain appended, checks, a taken name, a generated password it then shows', async () => {
    await freshFtp();
    await page.getByTestId('ftp-create').click();
    const create = dialog(page, 'ftp-create-modal');
    await create.waitFor();
    const user = create.getByTestId('ftp-user-input');
    // the name takes at most 10 characters and the domain is appended
    expect(await user.getAttribute('maxlength')).toBe('10');
    expect(await create.textContent()).toContain('@demo.test');
    expect(await create.getByTestId('ftp-folder-input').inputValue()).toBe('/');

    // nothing typed: required fields say so; a folder outside the home is refused
    await create.getByTestId('ftp-folder-input').fill('../etc');
    // leaving the folder marks it at once (it was typed in)
    await create.getByTestId('ftp-folder-input').blur();
    expect(await fieldError(create.getByTestId('ftp-folder-input'))).toMatch(/^Usa nombres de carpeta/);
    await create.getByTestId('ftp-submit').click();
    expect(await fieldError(user)).toBe('Este campo es obligatorio');
    expect(await fieldError(create.getByTestId('ftp-password-input'))).toBe('Este campo es obligatorio');
    expect(await fieldError(create.getByTestId('ftp-folder-input'))).toMatch(/^Usa nombres de carpeta/);

    await user.fill('web');
    expect(await create.getByTestId('ftp-login-preview').textContent()).toBe('Usuario de conexión: web@demo.test');
    await create.getByTestId('ftp-password-input-generate').click();
    const password = await create.getByTestId('ftp-password-input').inputValue();
    expect(password).toHaveLength(14);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[0-9]/);
    expect(password).toMatch(/[^a-zA-Z0-9]/);
    expect(await create.getByTestId('ftp-password-input').getAttribute('type')).toBe('text');
    await create.getByTestId('ftp-folder-input').fill('/e2e/files');
    await expectNoSeriousViolations(page);

    // the server's field error lands under the name
    await create.getByTestId('ftp-submit').click();
    await waitInvalid(page, 'ftp-create-modal', 'ftp-user-input');
    expect(await fieldError(user)).toBe('Ese usuario ya existe');

    await user.fill('e2e');
    await create.getByTestId('ftp-submit').click();
    await waitToast(page, 'Cuenta FTP creada');
    await create.waitFor({ state: 'detached' });
    await row(page, 'e2e@demo.test').waitFor();
    expect(await tableRows(page, `${ROWS}[data-name="e2e@demo.test"]`, 2)).toEqual(['e2e@demo.test | /e2e/files']);
    expect(await revealPassword(page, 'e2e@demo.test')).toBe(password);
  });

  it('changes the folder and the password of an account', async () => {
    await freshFtp();
    await row(page, 'e2e@demo.test').getByTestId('ftp-edit-folder').click();
    const folder = dialog(page, 'ftp-folder-modal');
    await folder.waitFor();
    const input = folder.getByTestId('ftp-folder-input');
    expect(await input.inputValue()).toBe('/e2e/files');
    await input.fill('');
    await folder.getByTestId('ftp-submit').click();
    expect(await fieldError(input)).toBe('Este campo es obligatorio');
    await input.fill('e2e');
    await folder.getByTestId('ftp-submit').click();
    await waitToast(page, 'Carpeta guardada');
    await folder.waitFor({ state: 'detached' });
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.includes('/e2e') === true,
      `${ROWS}[data-name="e2e@demo.test"] [data-testid="ftp-folder"]`,
    );
    expect(await tableRows(page, `${ROWS}[data-name="e2e@demo.test"]`, 2)).toEqual(['e2e@demo.test | /e2e']);

    await row(page, 'e2e@demo.test').getByTestId('ftp-password').click();
    const change = dialog(page, 'ftp-password-modal');
    await change.waitFor();
    expect(await change.textContent()).toContain('e2e@demo.test');
    await change.getByTestId('ftp-password-input').fill('short');
    await change.getByTestId('ftp-submit').click();
    await expect.poll(() => fieldError(change.getByTestId('ftp-password-input'))).toMatch(/8 caracteres/);
    await change.getByTestId('ftp-password-input-generate').click();
    const password = await change.getByTestId('ftp-password-input').inputValue();
    expect(password).toHaveLength(14);
    await change.getByTestId('ftp-submit').click();
    await waitToast(page, 'Contraseña cambiada');
    await change.waitFor({ state: 'detached' });
    expect(await revealPassword(page, 'e2e@demo.test')).toBe(password);
  });

  it('opens WebFTP in a new tab with a posted sign-on form (no password)', async () => {
    await freshFtp();
    let posted = '';
    await suite.context.route('**/webftp/**', async (route) => {
      posted = route.request().postData() ?? '';
      await route.fulfill({ contentType: 'text/html', body: '<title>WebFTP</title><p>webftp</p>' });
    });
    try {
      const [tab] = await Promise.all([
        suite.context.waitForEvent('page'),
        row(page, 'blog@demo.test').getByTestId('ftp-webftp').click(),
      ]);
      await tab.waitForURL(/\/webftp\/$/);
      await tab.getByText('webftp').waitFor();
      const fields = new URLSearchParams(posted);
      expect(fields.get('user')).toBe('blog@demo.test');
      expect(fields.get('token')?.length).toBeGreaterThan(20);
      expect(fields.get('initialDirectory')).toBe('');
      expect([...fields.keys()].some((key) => /pass/i.test(key))).toBe(false);
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    } finally {
      await suite.context.unrouteAll({ behavior: 'wait' });
    }
  });

  it('pages 10 rows at a time only above 10 rows', async () => {
    await freshFtp();
    const created: number[] = [];
    for (let i = 1; i <= 8; i++) {
      const answer = await apiFromPage<{ data: { ftp?: { id: number } } }>(
        page,
        `service/${serviceId}/ftp/create/`,
        `ftpUser=page${i}&password=e2e-page-pass&folder=`,
      );
      created.push(answer.data.ftp?.id ?? 0);
    }
    try {
      await freshFtp();
      // blog, e2e, page1…page8, web: 11 rows
      expect(await page.locator(ROWS).count()).toBe(10);
      expect(await page.getByTestId('ftp-pagination-text').textContent()).toBe('1–10 de 11');
      await page.getByRole('button', { name: 'Página 2' }).click();
      await waitNames(page, ROWS, ['web@demo.test']);
      // a filter starts over on page 1, and 8 rows fit on it
      await page.getByTestId('ftp-filter').fill('page');
      await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 8, ROWS);
      expect(await page.getByTestId('ftp-pagination').count()).toBe(0);
      await expectNoSeriousViolations(page);
    } finally {
      for (const id of created) await apiFromPage(page, `service/${serviceId}/ftp/${id}/delete/`, '');
    }
  });

  it('is keyboard reachable; the create dialog opens with Enter and closes with a double Escape', async () => {
    await freshFtp();
    await page.getByTestId('ftp-filter').focus();
    const stops = await tabStops(page, 6);
    expect(stops).toEqual([
      'button:Abrir blog@demo.test en WebFTP',
      'button:Ver la contraseña de blog@demo.test',
      'button:Cambiar la carpeta de blog@demo.test',
      'button:Cambiar la contraseña de blog@demo.test',
      'button:Eliminar blog@demo.test',
      'button:Abrir e2e@demo.test en WebFTP',
    ]);
    await page.getByTestId('ftp-create').focus();
    await page.keyboard.press('Enter');
    const create = dialog(page, 'ftp-create-modal');
    await create.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'ftp-user-input');
    await page.keyboard.type('keys');
    // one Escape keeps what was typed; two close the dialog
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await create.getByTestId('ftp-user-input').inputValue()).toBe('keys');
    await closeWithDoubleEscape(page, create);
  });

  it('deletes an account after confirming, with the server message', async () => {
    await freshFtp();
    await row(page, 'e2e@demo.test').getByTestId('ftp-delete').click();
    const confirm = dialog(page, 'ftp-delete-modal');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('e2e@demo.test');
    await expectNoSeriousViolations(page);
    // cancel keeps it
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row(page, 'e2e@demo.test').getByTestId('ftp-delete').click();
    await confirm.getByTestId('ftp-delete-modal-confirm').click();
    await waitToast(page, 'Cuenta FTP eliminada');
    await confirm.waitFor({ state: 'detached' });
    await waitNames(page, ROWS, ['blog@demo.test', 'web@demo.test']);
  });

  it('an unknown service id shows the not-found view', async () => {
    await page.goto(`${server.url}/admin/999999/service/ftp/`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('ftp-view').count()).toBe(0);
  });

  describe('read-only user', () => {
    const viewer = pageSession(
      () => browser,
      (viewerPage) => openFtp(viewerPage, server.url, VIEWER),
    );

    it('sees the accounts with WebFTP and "show password", which say no permission; no create, folder, password change or delete', async () => {
      const page = viewer.page;
      await waitNames(page, ROWS, ['blog@demo.test', 'web@demo.test']);
      for (const id of ['ftp-create', 'ftp-edit-folder', 'ftp-password', 'ftp-delete']) {
        expect(await page.getByTestId(id).count(), id).toBe(0);
      }
      expect(await page.getByTestId('ftp-webftp').count()).toBe(2);
      expect(await page.getByTestId('ftp-show-password').count()).toBe(2);
      await expectNoSeriousViolations(page);

      // The password is the account's whole power: the dialog says no permission and closes,
      // without asking the server.
      const asked: string[] = [];
      page.on('request', (request) => {
        if (/\/ftp\/\d+\/(login\/)?$/.test(new URL(request.url()).pathname)) asked.push(request.url());
      });
      await row(page, 'blog@demo.test').getByTestId('ftp-show-password').click();
      await waitToast(page, 'No tienes permiso para esta acción');
      expect(await dialog(page, 'ftp-reveal-modal').count()).toBe(0);
      expect(asked).toEqual([]);
      // WebFTP: the server refuses the sign-on; the tab the click opened closes again.
      const [tab] = await Promise.all([
        page.context().waitForEvent('page'),
        row(page, 'blog@demo.test').getByTestId('ftp-webftp').click(),
      ]);
      await waitToast(page, 'No tienes permiso para realizar esta acción');
      if (!tab.isClosed()) await tab.waitForEvent('close');
      expect(asked).toHaveLength(1);
    });
  });
});
