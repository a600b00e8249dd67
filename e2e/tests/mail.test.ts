import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { closeWithDoubleEscape, tabStops } from '../support/keyboard';
import { type Credentials, loginNoCaptcha, VIEWER } from '../support/panel';
import type { PanelServer } from '../support/server';
import { pageSession } from '../support/session';
import { pageSuite } from '../support/suite';
import { apiAnswer, dialog, drawnByTheApp, fieldError, holdCalls, titleOnceSet, waitToast } from '../support/ui';

const ROWS = '[data-testid="mail-list"] tbody tr[data-name]';

/** Logs in and opens demo.test's mail through the side menu (no id guessed). */
async function openMail(page: Page, baseUrl: string, credentials?: Credentials): Promise<void> {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-mail').click();
  await page.waitForURL(/\/admin\/\d+\/mail\/$/);
  await page.locator(ROWS).first().waitFor();
}

/** Each visible row as `name | type | details` (what the user reads). */
async function rows(page: Page): Promise<string[]> {
  return page.locator(ROWS).evaluateAll((trs) =>
    trs.map((tr) =>
      Array.from(tr.querySelectorAll('td'))
        .slice(0, 3)
        .map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())
        .join(' | '),
    ),
  );
}

/** The visible rows' names. */
async function names(page: Page): Promise<string[]> {
  return page.locator(ROWS).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-name') ?? ''));
}

async function waitNames(page: Page, wanted: string[]): Promise<void> {
  await page.waitForFunction(
    ([selector, expected]) =>
      JSON.stringify(
        Array.from(document.querySelectorAll(selector as string)).map((tr) => tr.getAttribute('data-name')),
      ) === JSON.stringify(expected),
    [ROWS, wanted] as const,
  );
}

function row(page: Page, name: string) {
  return page.locator(`${ROWS}[data-name="${name}"]`);
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

describe.skipIf(!chromiumAvailable())('Mail view', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openMail(page, server.url));
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let mailUrl: string;

  /** The admin's page, reloaded on demo.test's mail (one login for the whole file). */
  async function freshMail(): Promise<Page> {
    await page.goto(mailUrl);
    await page.locator(ROWS).first().waitFor();
    return page;
  }

  beforeAll(() => {
    ({ server, browser, page } = suite);
    mailUrl = page.url();
  });

  it('lists accounts and aliases in one list, filtered by type and by name', async () => {
    await freshMail();
    expect(await titleOnceSet(page, 'Correo · demo.test / Panel247 Demo Hosting')).toBe(
      'Correo · demo.test / Panel247 Demo Hosting',
    );
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('demo.test');
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toContain('Correo');
    expect(await rows(page)).toEqual([
      'contacto@demo.test | Alias | info@demo.testventas@demo.test',
      'facturas@demo.test | Alias | ventas@demo.testgestoria@example.com',
      'info@demo.test | Cuenta | 0 B de 2 GB (0,00 %)',
      'soporte@demo.test | Cuenta | 0 B de 1 GB (0,00 %)',
      'ventas@demo.test | Cuenta | 0 B de 1 GB (0,00 %)',
    ]);
    // five rows: no pagination (it shows only above 10)
    expect(await page.getByTestId('mail-pagination').count()).toBe(0);
    await expectNoSeriousViolations(page);

    await page.getByTestId('mail-type-filter').selectOption('alias');
    await waitNames(page, ['contacto@demo.test', 'facturas@demo.test']);
    await page.getByTestId('mail-type-filter').selectOption('account');
    await waitNames(page, ['info@demo.test', 'soporte@demo.test', 'ventas@demo.test']);
    // the text filter is on the name only (facturas@ sends to ventas@, but is an alias anyway)
    await page.getByTestId('mail-type-filter').selectOption('all');
    await page.getByTestId('mail-filter').fill('VENTAS');
    await waitNames(page, ['ventas@demo.test']);
    await page.getByTestId('mail-filter').fill('o@demo');
    await waitNames(page, ['contacto@demo.test', 'info@demo.test']);
    await page.getByTestId('mail-type-filter').selectOption('account');
    await waitNames(page, ['info@demo.test']);
    await page.getByTestId('mail-filter').fill('nobody');
    await waitNames(page, []);
    await page.getByText('Ninguna cuenta ni alias coincide con el filtro.').waitFor();
    await expectNoSeriousViolations(page);
  });

  it('shows a skeleton while a slow list loads, and the empty state without rows', async () => {
    // the view reads one page of accounts and aliases together
    const release = await holdCalls(page, '**/p247/service/*/mail/list/**', (route) =>
      route.fulfill(apiAnswer({ mail: [], total: 0 })),
    );
    try {
      // drawn by the server, the page would already hold the first page of rows
      await drawnByTheApp(page);
      await page.goto(mailUrl);
      await page.getByTestId('mail-skeleton').waitFor();
      release();
      await page.getByText('Todavía no hay cuentas de correo ni alias.').waitFor();
      expect(await page.getByTestId('mail-skeleton').count()).toBe(0);
      await expectNoSeriousViolations(page);
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
  });

  it('creates an account with a generated password, refuses a taken name, changes the password', async () => {
    await freshMail();
    await page.getByTestId('mail-create').click();
    const create = dialog(page, 'mail-create-modal');
    await create.waitFor();
    // both rights: account mode first, alias selectable
    expect(await create.getByRole('radio', { name: 'Cuenta de correo' }).isChecked()).toBe(true);
    expect(await create.getByRole('radio', { name: 'Alias' }).isDisabled()).toBe(false);

    // nothing typed: the required fields say so on submit
    await create.getByTestId('mail-submit').click();
    expect(await fieldError(create.getByTestId('mail-name'))).toBe('Este campo es obligatorio');
    expect(await fieldError(create.getByTestId('mail-password-input'))).toBe('Este campo es obligatorio');

    await create.getByTestId('mail-name').fill('info');
    await create.getByTestId('mail-password-input-generate').click();
    const password = await create.getByTestId('mail-password-input').inputValue();
    expect(password).toHaveLength(14);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[0-9]/);
    expect(password).toMatch(/[^a-zA-Z0-9]/);
    // a generated password shows in clear, so it can be read and copied
    expect(await create.getByTestId('mail-password-input').getAttribute('type')).toBe('text');
    await expectNoSeriousViolations(page);

    // the server's field error lands under the name
    await create.getByTestId('mail-submit').click();
    await page.waitForFunction(() => {
      const input = document.querySelector('[data-testid="mail-create-modal"] [data-testid="mail-name"]');
      return (input?.getAttribute('aria-invalid') ?? '') === 'true';
    });
    expect(await fieldError(create.getByTestId('mail-name'))).toBe('Esa dirección ya existe');

    await create.getByTestId('mail-name').fill('e2e-buzon');
    expect(await create.getByText('Dirección: e2e-buzon@demo.test').count()).toBe(1);
    await create.getByTestId('mail-quota').fill('300');
    await create.getByTestId('mail-submit').click();
    await waitToast(page, 'Cuenta de correo creada');
    await create.waitFor({ state: 'detached' });
    await row(page, 'e2e-buzon@demo.test').waitFor();
    expect((await rows(page)).find((text) => text.startsWith('e2e-buzon@'))).toBe(
      'e2e-buzon@demo.test | Cuenta | 0 B de 300 MB (0,00 %)',
    );

    // change its password
    await row(page, 'e2e-buzon@demo.test').getByTestId('mail-password').click();
    const change = dialog(page, 'mail-password-modal');
    await change.waitFor();
    expect(await change.textContent()).toContain('e2e-buzon@demo.test');
    await change.getByTestId('mail-submit').click();
    expect(await fieldError(change.getByTestId('mail-password-input'))).toBe('Este campo es obligatorio');
    await change.getByTestId('mail-password-input').fill('short');
    await change.getByTestId('mail-submit').click();
    await page.waitForFunction(() =>
      (document.querySelector('[data-testid="mail-password-modal"] [role="dialog"]')?.textContent ?? '').includes(
        'al menos 8 caracteres',
      ),
    );
    await change.getByTestId('mail-password-input-generate').click();
    expect(await change.getByTestId('mail-password-input').inputValue()).toHaveLength(14);
    await change.getByTestId('mail-submit').click();
    await waitToast(page, 'Contraseña cambiada');
    await change.waitFor({ state: 'detached' });
  });

  it('creates an alias with two targets: rows checked on blur, the first not removable, empty ones dropped', async () => {
    await freshMail();
    await page.getByTestId('mail-create').click();
    const create = dialog(page, 'mail-create-modal');
    await create.waitFor();
    await create.getByText('Alias', { exact: true }).click();
    await create.getByTestId('mail-alias-create-form').waitFor();

    await create.getByTestId('mail-name').fill('e2e-alias');
    const targets = create.getByTestId('mail-target');
    // one row, and it cannot be removed
    expect(await targets.count()).toBe(1);
    expect(await create.getByTestId('mail-target-remove').count()).toBe(0);
    await targets.nth(0).fill('info@demo.test');
    await create.getByTestId('mail-target-add').click();
    await targets.nth(1).fill('ventas@demo');
    await targets.nth(1).blur();
    expect(await fieldError(targets.nth(1))).toBe('Introduce una dirección de correo válida');
    await targets.nth(1).fill('ventas@demo.test');
    expect(await fieldError(targets.nth(1))).toBe('');
    await create.getByTestId('mail-target-add').click();
    expect(await targets.count()).toBe(3);
    // rows after the first can be removed; an empty one is simply dropped
    expect(await create.getByTestId('mail-target-remove').count()).toBe(2);
    await expectNoSeriousViolations(page);
    await create.getByTestId('mail-submit').click();
    await waitToast(page, 'Alias creado');
    await create.waitFor({ state: 'detached' });
    await row(page, 'e2e-alias@demo.test').waitFor();
    expect((await rows(page)).find((text) => text.startsWith('e2e-alias@'))).toBe(
      'e2e-alias@demo.test | Alias | info@demo.testventas@demo.test',
    );

    // edit: the targets come back as rows; drop the second, a target the server refuses is marked
    await row(page, 'e2e-alias@demo.test').getByTestId('mail-edit').click();
    const edit = dialog(page, 'mail-edit-modal');
    await edit.waitFor();
    const editTargets = edit.getByTestId('mail-target');
    expect(await editTargets.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(
      ['info@demo.test', 'ventas@demo.test'],
    );
    await edit.getByTestId('mail-target-remove').click();
    expect(await editTargets.count()).toBe(1);
    await editTargets.nth(0).fill('');
    await edit.getByTestId('mail-submit').click();
    await edit.getByTestId('mail-targets-error').waitFor();
    expect(await edit.getByTestId('mail-targets-error').textContent()).toBe('Indica al menos un destino');
    await editTargets.nth(0).fill('soporte@demo.test');
    await edit.getByTestId('mail-submit').click();
    await waitToast(page, 'Alias guardado');
    await edit.waitFor({ state: 'detached' });
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.includes('soporte@demo.test') ?? false,
      `${ROWS}[data-name="e2e-alias@demo.test"]`,
    );
  });

  it('shows connection data with a copy button per host', async () => {
    await freshMail();
    await page.getByTestId('mail-connection').click();
    const connection = dialog(page, 'mail-connection-modal');
    await connection.getByTestId('mail-connection-table').waitFor();
    const table = await connection.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.children)
          .map((cell) => (cell.textContent ?? '').trim())
          .join(' | '),
      ),
    );
    expect(table).toEqual([
      // the demo brand's fixed SSL host in the SSL column (spec 2 section 2), not the domain's again
      'IMAP (correo entrante) | imap.demo.test | ssl.demohosting.test',
      'SMTP (correo saliente) | smtp.demo.test | ssl.demohosting.test',
      'FTP | ftp.demo.test | ssl.demohosting.test',
      'Base de datos | bbdd.demo.test | ssl.demohosting.test',
    ]);
    expect(await connection.getByRole('button', { name: /^Copiar el servidor/ }).count()).toBe(8);
    await expectNoSeriousViolations(page);
    // a single Escape keeps it, two close it
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await connection.count()).toBe(1);
    await closeWithDoubleEscape(page, connection);
  });

  it('shows the brand’s fixed SSL host in the SSL column and the prefixed domain in the other', async () => {
    await server.cli(['brand', 'set', 'demo', '--ssl-host', 'secure.proveedor.test']);
    try {
      await freshMail();
      await page.getByTestId('mail-connection').click();
      const connection = dialog(page, 'mail-connection-modal');
      await connection.getByTestId('mail-connection-table').waitFor();
      const headers = await connection
        .locator('thead th')
        .evaluateAll((ths) => ths.map((th) => (th.textContent ?? '').trim()));
      const table = await connection.locator('tbody tr').evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.children)
            .map((cell) => (cell.textContent ?? '').trim())
            .join(' | '),
        ),
      );
      expect(headers.slice(1)).toEqual(['Sin SSL', 'Con SSL']);
      expect(table).toEqual([
        'IMAP (correo entrante) | imap.demo.test | secure.proveedor.test',
        'SMTP (correo saliente) | smtp.demo.test | secure.proveedor.test',
        'FTP | ftp.demo.test | secure.proveedor.test',
        'Base de datos | bbdd.demo.test | secure.proveedor.test',
      ]);
      await closeWithDoubleEscape(page, connection);
    } finally {
      await server.cli(['brand', 'set', 'demo', '--ssl-host', 'ssl.demohosting.test']);
    }
  });

  it('deletes an account and an alias, with the server message', async () => {
    await freshMail();
    for (const [name, message] of [
      ['e2e-buzon@demo.test', 'Cuenta de correo eliminada'],
      ['e2e-alias@demo.test', 'Alias eliminado'],
    ] as const) {
      await row(page, name).getByTestId('mail-delete').click();
      const confirm = dialog(page, 'mail-delete-modal');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(name);
      await confirm.getByTestId('mail-delete-confirm').click();
      await waitToast(page, message);
      await confirm.waitFor({ state: 'detached' });
      await row(page, name).waitFor({ state: 'detached' });
    }
    expect(await names(page)).toEqual([
      'contacto@demo.test',
      'facturas@demo.test',
      'info@demo.test',
      'soporte@demo.test',
      'ventas@demo.test',
    ]);
  });

  it('pages 10 rows at a time only above 10 rows', async () => {
    await freshMail();
    const id = /\/admin\/(\d+)\/mail\//.exec(mailUrl)?.[1];
    const post = (path: string, body: string) =>
      page.evaluate(
        async ([url, form]) => {
          const response = await fetch(url as string, {
            method: 'POST',
            headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
          });
          return (await response.json()) as { data: { alias?: { id: number } } };
        },
        [`/p247/service/${id}/${path}`, body] as const,
      );
    const created: number[] = [];
    for (let i = 1; i <= 7; i++) {
      const answer = await post('alias/create/', `name=e2e-page-${i}&target=info%40demo.test`);
      created.push(answer.data.alias?.id ?? 0);
    }
    try {
      await freshMail();
      expect(await page.locator(ROWS).count()).toBe(10);
      expect(await page.getByTestId('mail-pagination-text').textContent()).toBe('1–10 de 12');
      await page.getByRole('button', { name: 'Página 2' }).click();
      await waitNames(page, ['soporte@demo.test', 'ventas@demo.test']);
      expect(await page.getByTestId('mail-pagination-text').textContent()).toBe('11–12 de 12');
      // a filter starts over on page 1; 9 aliases fit on one page
      await page.getByTestId('mail-type-filter').selectOption('alias');
      await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 9, ROWS);
      expect(await page.getByTestId('mail-pagination').count()).toBe(0);
      await expectNoSeriousViolations(page);
    } finally {
      for (const aliasId of created) await post(`alias/${aliasId}/delete/`, '');
    }
  });

  it('opens WebMail in a new tab with a posted sign-on form (no password)', async () => {
    await freshMail();
    let posted = '';
    await suite.context.route('**/webmail/**', async (route) => {
      posted = route.request().postData() ?? '';
      await route.fulfill({ contentType: 'text/html', body: '<title>WebMail</title><p>webmail</p>' });
    });
    try {
      const [tab] = await Promise.all([
        suite.context.waitForEvent('page'),
        row(page, 'info@demo.test').getByTestId('mail-webmail').click(),
      ]);
      await tab.waitForURL(/\/webmail\/$/);
      await tab.getByText('webmail').waitFor();
      const fields = new URLSearchParams(posted);
      expect(fields.get('_user')).toBe('info@demo.test');
      expect(fields.get('_action')).toBe('login');
      expect(fields.get('_task')).toBe('login');
      // not `_token`: that name is Roundcube's own CSRF field
      expect(fields.get('_p247_token')?.length).toBeGreaterThan(20);
      expect(fields.has('_token')).toBe(false);
      expect([...fields.keys()].some((key) => /pass/i.test(key))).toBe(false);
      // the new tab cannot reach back into the panel
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    } finally {
      await suite.context.unrouteAll({ behavior: 'wait' });
    }
  });

  it('is keyboard reachable: filters, create, row actions; the create dialog opens with Enter', async () => {
    await freshMail();
    await page.getByTestId('mail-filter').focus();
    const stops = await tabStops(page, 4);
    expect(stops[0]).toMatch(/^(a|button):/);
    expect(stops.join('\n')).toContain('button:Editar contacto@demo.test');
    await page.getByTestId('mail-create').focus();
    await page.keyboard.press('Enter');
    const create = dialog(page, 'mail-create-modal');
    await create.waitFor();
    // the name field takes the focus
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'mail-name');
    await closeWithDoubleEscape(page, create);
  });

  it('shows the catch-all alias of mail-demo.test by its domain', async () => {
    await page.goto(`${server.url}/admin/mail/`);
    await page.getByTestId('list-filter').fill('mail-demo.test');
    await page.getByRole('button', { name: /mail-demo\.test/ }).click();
    await page.waitForURL(/\/admin\/\d+\/mail\/$/);
    await page.locator(ROWS).first().waitFor();
    expect(await rows(page)).toEqual([
      'hola@mail-demo.test | Cuenta | 0 B de 512 MB (0,00 %)',
      'mail-demo.test | Alias | hola@mail-demo.test',
    ]);
  });

  describe('read-only user', () => {
    const viewer = pageSession(
      () => browser,
      (viewerPage) => openMail(viewerPage, server.url, VIEWER),
    );

    it('sees the rows and WebMail and connection data, but no create, edit, password or delete', async () => {
      expect(await names(viewer.page)).toEqual([
        'contacto@demo.test',
        'facturas@demo.test',
        'info@demo.test',
        'soporte@demo.test',
        'ventas@demo.test',
      ]);
      expect(await viewer.page.getByTestId('mail-create').count()).toBe(0);
      expect(await viewer.page.getByTestId('mail-edit').count()).toBe(0);
      expect(await viewer.page.getByTestId('mail-password').count()).toBe(0);
      expect(await viewer.page.getByTestId('mail-delete').count()).toBe(0);
      expect(await viewer.page.getByTestId('mail-webmail').count()).toBe(3);
      await viewer.page.getByTestId('mail-connection').click();
      await dialog(viewer.page, 'mail-connection-modal').getByTestId('mail-connection-table').waitFor();
      await expectNoSeriousViolations(viewer.page);
    });
  });
});
