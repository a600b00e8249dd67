import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { closeWithDoubleEscape, tabStops } from '../support/keyboard';
import { type Credentials, loginNoCaptcha, VIEWER } from '../support/panel';
import type { PanelServer } from '../support/server';
import { pageSuite } from '../support/suite';
import { dialog, fieldError as inputError, waitToast } from '../support/ui';
import { titleOnceSet } from '../support/ui.ts';

const ROWS = '[data-testid="dns-list"] tbody tr[data-name]';

/** Logs in and opens demo.test's DNS zone through the side menu (no id guessed). */
async function openZone(page: Page, baseUrl: string, credentials?: Credentials): Promise<void> {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-dns').click();
  await page.waitForURL(/\/admin\/\d+\/service\/dns\/$/);
  await page.locator(ROWS).first().waitFor();
}

/** Each visible row as `name type priority ttl value` (what the user reads). */
async function rows(page: Page): Promise<string[]> {
  return page.locator(ROWS).evaluateAll((trs) =>
    trs.map((tr) =>
      Array.from(tr.querySelectorAll('td'))
        .slice(0, 5)
        .map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim() || '-')
        .join(' | '),
    ),
  );
}

async function rowCount(page: Page, count: number): Promise<void> {
  await page.waitForFunction(([selector, wanted]) => document.querySelectorAll(selector as string).length === wanted, [
    ROWS,
    count,
  ] as const);
}

/** The field error of the input with `testId` inside `scope`. */
function fieldError(page: Page, testId: string, scope = 'body'): Promise<string> {
  return inputError(page.locator(scope).getByTestId(testId));
}

async function openMenuItem(page: Page, testId: string): Promise<void> {
  await page.getByTestId('dns-toolbar').click();
  await page.getByTestId(testId).click();
}

describe.skipIf(!chromiumAvailable())('DNS zone view', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openZone(page, server.url));
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let zoneUrl: string;

  /** The admin's page, reloaded on the zone (one login for the whole file). */
  async function freshZone(): Promise<Page> {
    await page.goto(zoneUrl);
    await page.locator(ROWS).first().waitFor();
    return page;
  }

  beforeAll(() => {
    ({ server, browser, page } = suite);
    zoneUrl = page.url();
  });

  it('lists the demo zone: full names, priority only for MX/SRV, TTL labels, dynamic values, 10 per page', async () => {
    await freshZone();
    expect(await titleOnceSet(page, 'demo.test / Panel247 Demo Hosting')).toBe('demo.test / Panel247 Demo Hosting');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('demo.test');
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toContain('Zona DNS');

    const first = await rows(page);
    expect(first).toHaveLength(10);
    expect(first).toContain('demo.test | MX | 10 | Por defecto | mail.demo.test');
    expect(first).toContain('demo.test | CAA | - | 1 día | 0 issue "letsencrypt.org"');
    expect(first).toContain(
      '_dmarc.demo.test | TXT | - | Por defecto | v=DMARC1; p=none; rua=mailto:dmarc-reports@panel247.test',
    );
    expect(first).toContain(
      '_sip._tcp.demo.test | SRV | 20 | Por defecto | Peso 5 · Puerto 5060 · Destino sip.demo.test',
    );
    // a restored default that follows the provider's setting: a badge whose tooltip explains it
    const badge = page.getByTestId('dns-dynamic').first();
    expect(await badge.textContent()).toBe('{web_ipv4}');
    await badge.hover();
    await page.getByRole('tooltip').waitFor();
    expect(await page.getByRole('tooltip').textContent()).toMatch(/sigue la configuración del proveedor/);
    // the name servers are not eliminable: edit, but no delete
    const ns = page.locator(`${ROWS}[data-type="NS"]`).first();
    expect(await ns.getByTestId('dns-edit').count()).toBe(1);
    expect(await ns.getByTestId('dns-delete').count()).toBe(0);

    // more than 10 records: pagination, 10 on the first page and the rest on the second
    const paging = (await page.getByTestId('dns-pagination-text').textContent()) ?? '';
    const total = Number(/^1–10 de (\d+)$/.exec(paging)?.[1]);
    expect(total).toBeGreaterThan(10);
    expect(total).toBeLessThanOrEqual(20);
    await page.getByRole('button', { name: 'Página 2' }).click();
    await rowCount(page, total - 10);
    expect(await page.getByTestId('dns-pagination-text').textContent()).toBe(`11–${total} de ${total}`);
    expect((await rows(page)).map((row) => row.split(' | ')[0])).toContain('tienda.demo.test');
    expect(await seriousViolations(page)).toEqual([]);
    expect(suite.errors).toEqual([]);
  });

  it('creates an SRV and a CAA record through the dialog, with client errors under their fields', async () => {
    await freshZone();

    await openMenuItem(page, 'dns-create');
    const modal = '[data-testid="dns-create-modal"]';
    await page.getByTestId('dns-create-form').waitFor();
    // type-dependent fields: A has no priority, no SRV or CAA parts
    expect(await page.getByTestId('dns-field-priority').count()).toBe(0);
    expect(await page.getByTestId('dns-field-port').count()).toBe(0);
    await page.getByTestId('dns-field-type').selectOption('SRV');
    // priority, weight, port and target: four named fields
    for (const id of [
      'dns-field-srv-choice',
      'dns-field-srv-service',
      'dns-field-srv-protocol',
      'dns-field-priority',
      'dns-field-weight',
      'dns-field-port',
    ]) {
      expect(await page.getByTestId(id).isVisible(), id).toBe(true);
    }
    expect(await page.getByTestId('dns-field-priority').inputValue()).toBe('20');
    expect(await page.getByLabel('Peso', { exact: true }).getAttribute('placeholder')).toBe('20');
    expect(await page.getByLabel(/^Destino/).getAttribute('data-testid')).toBe('dns-field-value');
    // empty submit: each error under its own field, nothing sent
    await page.getByTestId('dns-submit').click();
    expect(await fieldError(page, 'dns-field-port', modal)).toBe('Este campo es obligatorio');
    expect(await fieldError(page, 'dns-field-value', modal)).toBe('Este campo es obligatorio');
    // 'other' empties the service field; a bad target is refused on blur
    await page.getByTestId('dns-field-srv-choice').selectOption({ label: 'Otro (escríbelo)' });
    expect(await page.getByTestId('dns-field-srv-service').inputValue()).toBe('');
    await page.getByTestId('dns-field-srv-service').fill('_xmpp-client');
    await page.getByTestId('dns-field-srv-protocol').selectOption('_tcp');
    await page.getByTestId('dns-field-priority').selectOption('10');
    await page.getByTestId('dns-field-port').fill('99999');
    await page.getByTestId('dns-field-value').fill('not a host');
    await page.getByTestId('dns-field-ttl').focus();
    expect(await fieldError(page, 'dns-field-value', modal)).toBe(
      'Nombre de host no válido (por ejemplo, mail.ejemplo.com)',
    );
    expect(await fieldError(page, 'dns-field-port', modal)).toBe('Peso y puerto deben estar entre 0 y 65535');
    await page.getByTestId('dns-field-port').fill('5222');
    await page.getByTestId('dns-field-value').fill('xmpp.demo.test');
    await page.getByTestId('dns-field-ttl').selectOption({ label: '1 h' });
    expect(await page.getByTestId('dns-full-name').textContent()).toBe('Nombre completo: _xmpp-client._tcp.demo.test');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('dns-submit').click();
    await waitToast(page, 'Registro creado');
    await dialog(page, 'dns-create-modal').waitFor({ state: 'detached' });

    await page.getByTestId('dns-filter').fill('xmpp');
    await expect
      .poll(() => rows(page))
      .toEqual(['_xmpp-client._tcp.demo.test | SRV | 10 | 1 h | Peso 10 · Puerto 5222 · Destino xmpp.demo.test']);

    // CAA: flag and tag, the value quoted by the composition
    await openMenuItem(page, 'dns-create');
    await page.getByTestId('dns-field-type').selectOption('CAA');
    expect(await page.getByTestId('dns-field-caa-flag').inputValue()).toBe('0');
    expect(await page.getByTestId('dns-field-priority').count()).toBe(0);
    await page.getByTestId('dns-field-caa-flag').fill('300');
    await page.getByTestId('dns-field-caa-tag').selectOption('issuewild');
    // the chosen tag's sentence fits its select: the text's width, in the select's own font, is
    // within the room left of the arrow
    const tagFits = await page.getByTestId('dns-field-caa-tag').evaluate((element) => {
      const select = element as HTMLSelectElement;
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = context.measureText(select.selectedOptions[0]?.textContent ?? '').width;
      const room = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return text <= room;
    });
    expect(tagFits).toBe(true);
    await page.getByTestId('dns-field-value').fill('sectigo.com');
    await page.getByTestId('dns-submit').click();
    expect(await fieldError(page, 'dns-field-caa-flag', modal)).toBe('El flag de un CAA va de 0 a 255');
    await page.getByTestId('dns-field-caa-flag').fill('0');
    await page.getByTestId('dns-submit').click();
    await waitToast(page, 'Registro creado');
    await dialog(page, 'dns-create-modal').waitFor({ state: 'detached' });
    await page.getByTestId('dns-filter').fill('sectigo');
    await expect.poll(() => rows(page)).toEqual(['demo.test | CAA | - | Por defecto | 0 issuewild "sectigo.com"']);

    // a server-side rule (CNAME beside other records) comes back under its field
    await openMenuItem(page, 'dns-create');
    await page.getByTestId('dns-field-type').selectOption('CNAME');
    await page.getByTestId('dns-field-zona').fill('mail');
    await page.getByTestId('dns-field-value').fill('elsewhere.example.com');
    await page.getByTestId('dns-submit').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="dns-create-modal"] [aria-invalid="true"]'));
    const serverError = `${await fieldError(page, 'dns-field-zona', modal)}${await fieldError(page, 'dns-field-value', modal)}`;
    expect(serverError).toMatch(/CNAME no puede convivir/);
    expect(suite.errors).toEqual([]);
  });

  it('keeps "_" to service-label types, and shows HTML typed into a TXT record as text', async () => {
    await freshZone();
    const modal = '[data-testid="dns-create-modal"]';
    await openMenuItem(page, 'dns-create');
    await page.getByTestId('dns-create-form').waitFor();
    await page.getByTestId('dns-field-zona').fill('_www');
    await page.getByTestId('dns-field-value').fill('192.0.2.80');
    await page.getByTestId('dns-submit').click();
    expect(await fieldError(page, 'dns-field-zona', modal)).toBe(
      'Las etiquetas con "_" (como _dmarc o _sip._tcp) solo valen para registros TXT, SRV y CNAME',
    );

    const html = '<img src=x onerror="window.__pwned=1"><b>negrita</b>';
    await page.getByTestId('dns-field-type').selectOption('TXT');
    await page.getByTestId('dns-field-zona').fill('html');
    await page.getByTestId('dns-field-value').fill(html);
    await page.getByTestId('dns-submit').click();
    await waitToast(page, 'Registro creado');
    await dialog(page, 'dns-create-modal').waitFor({ state: 'detached' });
    await page.getByTestId('dns-filter').fill('negrita');
    await rowCount(page, 1);
    const value = page.locator(ROWS).getByTestId('dns-value');
    expect(await value.textContent()).toBe(html);
    expect(await page.locator(`${ROWS} img, ${ROWS} b`).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // gone again, so the other tests see the demo zone as it was
    await page.getByRole('button', { name: 'Eliminar html.demo.test' }).click();
    await page.getByTestId('dns-delete-modal-confirm').click();
    await waitToast(page, 'Registro eliminado');
  });

  it('edits: SRV and CAA values split back into their parts, changed and saved', async () => {
    await freshZone();
    const modal = '[data-testid="dns-edit-modal"]';

    await page.getByTestId('dns-type-filter').selectOption('SRV');
    await page.getByTestId('dns-filter').fill('_sip');
    await rowCount(page, 1);
    await page.getByRole('button', { name: 'Editar _sip._tcp.demo.test' }).click();
    await page.getByTestId('dns-edit-form').waitFor();
    expect(await page.locator(`${modal} h2`).textContent()).toBe('Editar registro: _sip._tcp.demo.test');
    // type and name fixed; the stored "5 5060 sip.demo.test" in its parts
    expect(await page.getByTestId('dns-field-type').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByTestId('dns-field-name').inputValue()).toBe('_sip._tcp.demo.test');
    expect(await page.getByTestId('dns-field-priority').inputValue()).toBe('20');
    expect(await page.getByTestId('dns-field-port').inputValue()).toBe('5060');
    expect(await page.getByTestId('dns-field-value').inputValue()).toBe('sip.demo.test');
    expect(await page.getByTestId('dns-field-weight').inputValue()).toBe('5');
    await page.getByTestId('dns-field-port').fill('5061');
    await page.getByTestId('dns-field-priority').selectOption('30');
    await page.getByTestId('dns-submit').click();
    await waitToast(page, 'Registro guardado');
    await dialog(page, 'dns-edit-modal').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.body.textContent?.includes('Puerto 5061'));
    expect(await rows(page)).toEqual([
      '_sip._tcp.demo.test | SRV | 30 | Por defecto | Peso 5 · Puerto 5061 · Destino sip.demo.test',
    ]);

    await page.getByTestId('dns-type-filter').selectOption('CAA');
    await page.getByTestId('dns-filter').fill('letsencrypt');
    await rowCount(page, 1);
    await page.getByTestId('dns-edit').click();
    await page.getByTestId('dns-edit-form').waitFor();
    expect(await page.getByTestId('dns-field-caa-flag').inputValue()).toBe('0');
    expect(await page.getByTestId('dns-field-caa-tag').inputValue()).toBe('issue');
    expect(await page.getByTestId('dns-field-value').inputValue()).toBe('letsencrypt.org');
    // value required in edit
    await page.getByTestId('dns-field-value').fill('');
    await page.getByTestId('dns-submit').click();
    expect(await fieldError(page, 'dns-field-value', modal)).toBe('Este campo es obligatorio');
    await page.getByTestId('dns-field-value').fill('pki.goog');
    await page.getByTestId('dns-field-ttl').selectOption({ label: '12 h' });
    await page.getByTestId('dns-submit').click();
    await waitToast(page, 'Registro guardado');
    await page.getByTestId('dns-filter').fill('pki');
    await expect.poll(() => rows(page)).toEqual(['demo.test | CAA | - | 12 h | 0 issue "pki.goog"']);
  });

  it('deletes one record after confirmation; filters by type and by text on the server', async () => {
    await freshZone();

    await page.getByTestId('dns-type-filter').selectOption('MX');
    await expect
      .poll(() => rows(page))
      .toEqual([
        'demo.test | MX | 10 | Por defecto | mail.demo.test',
        'demo.test | MX | 20 | Por defecto | backup-mx.demo.test',
      ]);
    expect(await page.getByTestId('dns-pagination').count()).toBe(0);
    await page.getByTestId('dns-filter').fill('BACKUP');
    await rowCount(page, 1);
    await page.getByTestId('dns-filter').fill('no-such-record');
    await page.getByText('Ningún registro coincide con el filtro').waitFor();
    await page.getByTestId('dns-type-filter').selectOption('');
    await page.getByTestId('dns-filter').fill('dmarc');
    await rowCount(page, 1);

    await page.getByRole('button', { name: 'Eliminar _dmarc.demo.test' }).click();
    await dialog(page, 'dns-delete-modal').waitFor();
    expect(await dialog(page, 'dns-delete-modal').textContent()).toContain(
      '¿Eliminar el registro TXT de _dmarc.demo.test',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('dns-delete-modal-confirm').click();
    await waitToast(page, 'Registro eliminado');
    await dialog(page, 'dns-delete-modal').waitFor({ state: 'detached' });
    await page.getByText('Ningún registro coincide con el filtro').waitFor();
  });

  it('delete all and restore defaults, each behind its confirmation; export downloads the zone', async () => {
    await freshZone();

    const download = page.waitForEvent('download');
    await openMenuItem(page, 'dns-export');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/demo\.test/);
    const path = await file.path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path, 'utf8')).toMatch(/IN\s+SOA/);

    await openMenuItem(page, 'dns-delete-all');
    await dialog(page, 'dns-delete-all-modal').waitFor();
    // cancel keeps everything
    await dialog(page, 'dns-delete-all-modal').getByRole('button', { name: 'Cancelar' }).click();
    await dialog(page, 'dns-delete-all-modal').waitFor({ state: 'detached' });
    await rowCount(page, 10);

    await openMenuItem(page, 'dns-delete-all');
    await page.getByTestId('dns-delete-all-modal-confirm').click();
    await dialog(page, 'dns-delete-all-modal').waitFor({ state: 'detached' });
    // only the provider's name servers stay
    await rowCount(page, 2);
    expect((await rows(page)).every((row) => row.startsWith('demo.test | NS'))).toBe(true);
    expect(await page.getByTestId('dns-pagination').count()).toBe(0);

    await openMenuItem(page, 'dns-restore');
    await page.getByTestId('dns-restore-modal-confirm').click();
    await waitToast(page, 'Zona restaurada con los registros por defecto');
    await dialog(page, 'dns-restore-modal').waitFor({ state: 'detached' });
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length > 2, ROWS);
    const restored = await rows(page);
    expect(restored.some((row) => row.startsWith('www.demo.test | CNAME | - | Por defecto | demo.test'))).toBe(true);
    expect(restored.some((row) => row.startsWith('demo.test | A |'))).toBe(true);
    expect(restored.some((row) => row.includes('_sip'))).toBe(false);
  });

  it('a read-only user sees the list and the export, but no create, restore, delete all, edit or delete', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = trackErrors(page);
    await openZone(page, server.url, VIEWER);
    expect(await page.locator(ROWS).count()).toBeGreaterThan(2);
    expect(await page.getByTestId('dns-edit').count()).toBe(0);
    expect(await page.getByTestId('dns-delete').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Acciones' }).count()).toBe(0);
    await page.getByTestId('dns-toolbar').click();
    await page.getByTestId('dns-export').waitFor();
    for (const id of ['dns-create', 'dns-restore', 'dns-delete-all']) {
      expect(await page.getByTestId(id).count(), id).toBe(0);
    }
    await page.keyboard.press('Escape');
    // the menu closes with a transition: checked once it is gone
    await page.getByTestId('dns-export').waitFor({ state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keyboard: filters, menu, dialogs and row actions are reachable; double Escape closes a dialog', async () => {
    await freshZone();

    await page.getByTestId('dns-toolbar').focus();
    const stops = await tabStops(page, 5);
    expect(stops.slice(0, 2)).toEqual(['select:Tipo de registro', 'input:Filtrar']);
    // the first row: its dynamic-value badge (tooltip on focus), then its edit button
    expect(stops.slice(2).some((stop) => /Automático: /.test(stop))).toBe(true);
    expect(stops.slice(2)).toContain('button:Editar demo.test');

    await page.getByTestId('dns-toolbar').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('dns-create').waitFor();
    await page.getByTestId('dns-create').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('dns-create-form').waitFor();
    // the type select has the focus; a single Escape keeps the dialog, a double one closes it
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('dns-field-type');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await page.getByTestId('dns-create-form').isVisible()).toBe(true);
    await closeWithDoubleEscape(page, dialog(page, 'dns-create-modal'));
  });

  it('an unknown service id shows the not-found view', async () => {
    await page.goto(`${server.url}/admin/999999/service/dns/`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('dns-view').count()).toBe(0);
  });
});
