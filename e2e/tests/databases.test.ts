import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { closeWithDoubleEscape, tabStops } from '../support/keyboard';
import { MARIADB_URL, mariadbLeftovers, mariadbQuery } from '../support/mariadb';
import { type Credentials, loginNoCaptcha, VIEWER } from '../support/panel';
import type { PanelServer } from '../support/server';
import { pageSession } from '../support/session';
import { pageSuite } from '../support/suite';
import {
  apiFromPage,
  dialog,
  drawnByTheApp,
  fieldError,
  holdCalls,
  tableRows,
  titleOnceSet,
  waitNames,
  waitToast,
} from '../support/ui';

const execFileAsync = promisify(execFile);
const ROWS = '[data-testid="ddbb-list"] tbody tr[data-name]';
/** The plan's limit in this run: room for 11 databases, so the list can page. */
const LIMIT = 11;

/** Logs in and opens demo.test's databases through the side menu (no id guessed). */
async function openDatabases(page: Page, baseUrl: string, credentials?: Credentials): Promise<void> {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-ddbb').click();
  await page.waitForURL(/\/admin\/\d+\/service\/ddbb\/$/);
  await page.getByTestId('ddbb-count').waitFor();
}

function row(page: Page, name: string) {
  return page.locator(`${ROWS}[data-name="${name}"]`);
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Whether MariaDB lets `user` in with `password` from this machine (the real proof of a password). */
async function canLogIn(user: string, password: string): Promise<boolean> {
  const url = new URL(MARIADB_URL);
  try {
    await execFileAsync(
      'mariadb',
      [
        '--protocol=tcp',
        `--host=${url.hostname}`,
        `--port=${url.port || '3306'}`,
        `--user=${user}`,
        '--batch',
        '--execute',
        'SELECT 1',
      ],
      { env: { ...process.env, MYSQL_PWD: password }, timeout: 30_000 },
    );
    return true;
  } catch {
    return false;
  }
}

/** Opens "show password" on a row and returns the password the dialog shows. */
async function revealPassword(page: Page, name: string): Promise<string> {
  await row(page, name).getByTestId('ddbb-show-password').click();
  const reveal = dialog(page, 'ddbb-reveal-modal');
  await reveal.getByTestId('ddbb-reveal-modal-value').waitFor();
  expect(await reveal.textContent()).toContain(name);
  const password = (await reveal.getByTestId('ddbb-reveal-modal-value').textContent()) ?? '';
  await reveal.getByRole('button', { name: 'Cerrar' }).click();
  await reveal.waitFor({ state: 'detached' });
  return password;
}

describe.skipIf(!chromiumAvailable())('Database view (MariaDB)', () => {
  // Registered before the suite's hooks, so it runs after the server stops (vitest runs
  // after-hooks last-registered first): the run leaves no database or user on the shared MariaDB.
  afterAll(async () => {
    if (prefix) expect(await mariadbLeftovers(prefix)).toEqual({ databases: [], users: [] });
  });
  const suite = pageSuite(
    { captcha: 'none', env: { PANEL_DATABASES_MAX_PER_SERVICE: String(LIMIT) } },
    (page, server) => openDatabases(page, server.url),
  );
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let databasesUrl: string;
  let serviceId: string;
  let prefix: string;
  /** The first database this run creates: `{prefix}demotest_1`. */
  let first: string;

  /** The admin's page, reloaded on demo.test's databases (one login for the whole file). */
  async function freshDatabases(rows = true): Promise<Page> {
    await page.goto(databasesUrl);
    await page.getByTestId('ddbb-count').waitFor();
    if (rows) await page.locator(ROWS).first().waitFor();
    return page;
  }

  beforeAll(() => {
    ({ server, browser, page } = suite);
    prefix = server.databasePrefix;
    first = `${prefix}demotest_1`;
    databasesUrl = page.url();
    serviceId = /\/admin\/(\d+)\//.exec(databasesUrl)?.[1] ?? '';
  });

  it('starts empty (MariaDB gets no demo databases), after a skeleton while the list is slow', async () => {
    const release = await holdCalls(page, '**/p247/service/*/ddbb/list/**', (route) => route.continue());
    try {
      // drawn by the server, the page would already hold the list
      await drawnByTheApp(page);
      await page.goto(databasesUrl);
      await page.getByTestId('ddbb-skeleton').waitFor();
      release();
      await page.getByText('Todavía no hay bases de datos.').waitFor();
      expect(await page.getByTestId('ddbb-skeleton').count()).toBe(0);
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
    expect(await titleOnceSet(page, 'Bases de datos · demo.test / Panel247 Demo Hosting')).toBe(
      'Bases de datos · demo.test / Panel247 Demo Hosting',
    );
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toBe(
      'Escritorio/demo.test/Hosting/Bases de datos',
    );
    expect(await page.getByTestId('ddbb-count').textContent()).toBe(`0 de ${LIMIT} bases de datos del plan`);
    expect(await page.getByTestId('ddbb-create').isEnabled()).toBe(true);
    await expectNoSeriousViolations(page);
  });

  it('creates a database with a generated password that really logs in to MariaDB', async () => {
    await freshDatabases(false);
    await page.getByTestId('ddbb-create').click();
    const create = dialog(page, 'ddbb-create-modal');
    await create.waitFor();
    const input = create.getByTestId('ddbb-password-input');
    await create.getByTestId('ddbb-submit').click();
    expect(await fieldError(input)).toBe('Este campo es obligatorio');
    // the server's 8-character minimum comes back under the field
    await input.fill('short');
    await create.getByTestId('ddbb-submit').click();
    await expect.poll(() => fieldError(input)).toMatch(/8 caracteres/);

    await create.getByTestId('ddbb-password-input-generate').click();
    const password = await input.inputValue();
    expect(password).toHaveLength(14);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[0-9]/);
    expect(password).toMatch(/[^a-zA-Z0-9]/);
    await expectNoSeriousViolations(page);
    await create.getByTestId('ddbb-submit').click();
    await waitToast(page, 'Base de datos creada');
    await create.waitFor({ state: 'detached' });
    await row(page, first).waitFor();
    expect(await tableRows(page, ROWS, 4)).toEqual([`${first} | ${first} | 0 B | Solo local`]);
    expect(await page.getByTestId('ddbb-count').textContent()).toBe(`1 de ${LIMIT} bases de datos del plan`);

    expect(await mariadbQuery(`SHOW DATABASES LIKE '${first}'`)).toEqual([[first]]);
    expect(await canLogIn(first, password)).toBe(true);
    expect(await revealPassword(page, first)).toBe(password);
  });

  it('toggles external access after a confirmation; the row follows the server', async () => {
    await freshDatabases();
    const external = () =>
      mariadbQuery(`SELECT Host FROM mysql.user WHERE User = '${first}' AND Host = '%'`).then((rows) => rows.length);
    expect(await external()).toBe(0);

    const toggle = row(page, first).getByTestId('ddbb-external-toggle');
    // the input is visually hidden: a pointer clicks the switch's track
    const track = row(page, first).locator('.mantine-Switch-track');
    await track.click();
    const confirm = dialog(page, 'ddbb-external-modal');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`¿Permitir conexiones a ${first} desde cualquier dirección?`);
    // the switch only asks: cancelling leaves it off
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(false);

    await track.click();
    await expectNoSeriousViolations(page);
    await confirm.getByTestId('ddbb-external-modal-confirm').click();
    await waitToast(page, 'Acceso externo activado');
    await confirm.waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(true);
    expect(await row(page, first).getByTestId('ddbb-external-state').textContent()).toBe('Permitido');
    expect(await external()).toBe(1);

    await track.click();
    expect(await confirm.textContent()).toContain(`¿Quitar el acceso externo a ${first}?`);
    await confirm.getByTestId('ddbb-external-modal-confirm').click();
    await waitToast(page, 'Acceso externo desactivado');
    await confirm.waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await external()).toBe(0);
  });

  it('downloads a dump named after the database, with its tables', async () => {
    await mariadbQuery(
      `CREATE TABLE \`${first}\`.e2e_items (id INT PRIMARY KEY, name VARCHAR(40)); INSERT INTO \`${first}\`.e2e_items VALUES (1, 'uno')`,
    );
    await freshDatabases();
    // the size comes from MariaDB: an InnoDB table takes at least a page
    expect(await row(page, first).getByTestId('ddbb-size').textContent()).toMatch(/^\d+(,\d+)? KB$/);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      row(page, first).getByTestId('ddbb-dump').click(),
    ]);
    expect(file.suggestedFilename()).toBe(`${first}.sql`);
    const dump = await readFile(await file.path(), 'utf8');
    expect(dump).toMatch(/^-- (MariaDB|MySQL) dump/m);
    expect(dump).toContain('CREATE TABLE `e2e_items`');
    expect(dump).toContain("(1,'uno')");
  });

  it('changes the password: MariaDB takes the new one and refuses the old one', async () => {
    await freshDatabases();
    const old = await revealPassword(page, first);
    await row(page, first).getByTestId('ddbb-password').click();
    const change = dialog(page, 'ddbb-password-modal');
    await change.waitFor();
    expect(await change.textContent()).toContain(first);
    await change.getByTestId('ddbb-password-input-generate').click();
    const password = await change.getByTestId('ddbb-password-input').inputValue();
    await change.getByTestId('ddbb-submit').click();
    await waitToast(page, 'Contraseña cambiada');
    await change.waitFor({ state: 'detached' });
    expect(await revealPassword(page, first)).toBe(password);
    expect(await canLogIn(first, password)).toBe(true);
    expect(await canLogIn(first, old)).toBe(false);
  });

  it('opens phpMyAdmin in a new tab with a posted sign-on form (no password)', async () => {
    await freshDatabases();
    let posted = '';
    await suite.context.route('**/phpmyadmin/**', async (route) => {
      posted = route.request().postData() ?? '';
      await route.fulfill({ contentType: 'text/html', body: '<title>phpMyAdmin</title><p>phpmyadmin</p>' });
    });
    try {
      const [tab] = await Promise.all([
        suite.context.waitForEvent('page'),
        row(page, first).getByTestId('ddbb-phpmyadmin').click(),
      ]);
      await tab.waitForURL(/\/phpmyadmin\//);
      await tab.getByText('phpmyadmin').waitFor();
      const fields = new URLSearchParams(posted);
      expect(fields.get('user')).toBe(first);
      expect(fields.get('token')?.length).toBeGreaterThan(20);
      expect([...fields.keys()].some((key) => /pass/i.test(key))).toBe(false);
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    } finally {
      await suite.context.unrouteAll({ behavior: 'wait' });
    }
  });

  it('pages above 10 rows, and refuses to create at the plan limit', async () => {
    await freshDatabases();
    const created: number[] = [];
    for (let i = 2; i <= LIMIT; i++) {
      const answer = await apiFromPage<{ data: { ddbb?: { id: number } } }>(
        page,
        `service/${serviceId}/ddbb/create/`,
        'password=e2e-page-pass',
      );
      created.push(answer.data.ddbb?.id ?? 0);
    }
    try {
      await freshDatabases();
      expect(await page.locator(ROWS).count()).toBe(10);
      expect(await page.getByTestId('ddbb-pagination-text').textContent()).toBe('1–10 de 11');
      // demotest_10 and _11 sort before _2: the last page holds _9
      await page.getByRole('button', { name: 'Página 2' }).click();
      await waitNames(page, ROWS, [`${prefix}demotest_9`]);
      // at the limit the create button is off, and says why
      expect(await page.getByTestId('ddbb-count').textContent()).toBe(`${LIMIT} de ${LIMIT} bases de datos del plan`);
      expect(await page.getByTestId('ddbb-create').isDisabled()).toBe(true);
      expect(await page.getByTestId('ddbb-limit-hint').textContent()).toBe(
        `Has llegado al límite de ${LIMIT} bases de datos de tu plan.`,
      );
      // the server refuses too
      const refused = await apiFromPage<{ system: { valid: boolean; errors: string[] } }>(
        page,
        `service/${serviceId}/ddbb/create/`,
        'password=e2e-page-pass',
      );
      expect(refused.system.valid).toBe(false);
      // a filter starts over on page 1
      await page.getByTestId('ddbb-filter').fill('demotest_1');
      await waitNames(page, ROWS, [first, `${prefix}demotest_10`, `${prefix}demotest_11`]);
      expect(await page.getByTestId('ddbb-pagination').count()).toBe(0);
      await expectNoSeriousViolations(page);
    } finally {
      for (const id of created) await apiFromPage(page, `service/${serviceId}/ddbb/${id}/delete/`, '');
    }
    await freshDatabases();
    await waitNames(page, ROWS, [first]);
    expect(await page.getByTestId('ddbb-create').isEnabled()).toBe(true);
    expect(await page.getByTestId('ddbb-limit-hint').count()).toBe(0);
  });

  it('is keyboard reachable: the switch asks on Space, the create dialog opens with Enter', async () => {
    await freshDatabases();
    await page.getByTestId('ddbb-filter').focus();
    const stops = await tabStops(page, 6);
    expect(stops).toEqual([
      `input:Acceso externo a ${first}`,
      `button:Ver la contraseña de ${first}`,
      `button:Abrir ${first} en phpMyAdmin`,
      `button:Descargar una copia de ${first}`,
      `button:Cambiar la contraseña de ${first}`,
      `button:Eliminar ${first}`,
    ]);
    await row(page, first).getByTestId('ddbb-external-toggle').focus();
    await page.keyboard.press('Space');
    const confirm = dialog(page, 'ddbb-external-modal');
    await confirm.waitFor();
    // Cancel has the focus: Enter does not change anything by accident
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(await row(page, first).getByTestId('ddbb-external-toggle').isChecked()).toBe(false);

    await page.getByTestId('ddbb-create').focus();
    await page.keyboard.press('Enter');
    const create = dialog(page, 'ddbb-create-modal');
    await create.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'ddbb-password-input');
    await closeWithDoubleEscape(page, create);
  });

  it('an unknown service id shows the not-found view', async () => {
    await page.goto(`${server.url}/admin/999999/service/ddbb/`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('ddbb-view').count()).toBe(0);
  });

  describe('read-only user', () => {
    const viewer = pageSession(
      () => browser,
      (viewerPage) => openDatabases(viewerPage, server.url, VIEWER),
    );

    it('sees the databases with "show password" and phpMyAdmin, which say no permission, and nothing that changes them', async () => {
      const page = viewer.page;
      await waitNames(page, ROWS, [first]);
      for (const id of ['ddbb-create', 'ddbb-password', 'ddbb-delete', 'ddbb-dump', 'ddbb-external-toggle']) {
        expect(await page.getByTestId(id).count(), id).toBe(0);
      }
      expect(await row(page, first).getByTestId('ddbb-external-state').textContent()).toBe('Solo local');
      expect(await page.getByTestId('ddbb-phpmyadmin').count()).toBe(1);
      expect(await page.getByTestId('ddbb-show-password').count()).toBe(1);
      await expectNoSeriousViolations(page);

      // The password opens the database for writing: the dialog says no permission and closes,
      // without asking the server.
      const asked: string[] = [];
      page.on('request', (request) => {
        if (/\/ddbb\/\d+\/(login\/)?$/.test(new URL(request.url()).pathname)) asked.push(request.url());
      });
      await row(page, first).getByTestId('ddbb-show-password').click();
      await waitToast(page, 'No tienes permiso para esta acción');
      expect(await dialog(page, 'ddbb-reveal-modal').count()).toBe(0);
      expect(asked).toEqual([]);
      // phpMyAdmin: the server refuses the sign-on; the tab the click opened closes again.
      const [tab] = await Promise.all([
        page.context().waitForEvent('page'),
        row(page, first).getByTestId('ddbb-phpmyadmin').click(),
      ]);
      await waitToast(page, 'No tienes permiso para realizar esta acción');
      if (!tab.isClosed()) await tab.waitForEvent('close');
      expect(asked).toHaveLength(1);
    });
  });

  it('deletes a database after confirming: MariaDB drops it and its user', async () => {
    await freshDatabases();
    await row(page, first).getByTestId('ddbb-delete').click();
    const confirm = dialog(page, 'ddbb-delete-modal');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(first);
    await expectNoSeriousViolations(page);
    await confirm.getByTestId('ddbb-delete-modal-confirm').click();
    await waitToast(page, 'Base de datos eliminada');
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('Todavía no hay bases de datos.').waitFor();
    expect(await mariadbLeftovers(prefix)).toEqual({ databases: [], users: [] });
  });
});
