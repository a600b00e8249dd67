import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { closeWithDoubleEscape } from '../support/keyboard';
import { loginNoCaptcha, VIEWER } from '../support/panel';
import { PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { pageSuite } from '../support/suite';
import { dialog, fieldError, waitToast } from '../support/ui';

const ROWS = '[data-testid="dns-list"] tbody tr[data-name]';

const FILE = `; from another provider
$ORIGIN demo.test.
$TTL 3600
@        IN SOA  ns1.elsewhere.net. hostmaster.demo.test. ( 1 10800 3600 604800 3600 )
imported 600 IN A 198.51.100.44
notes    IN TXT  ( "first part, " "second part" )
1        IN PTR  host.demo.test.
`;

async function openZone(page: Page, baseUrl: string, credentials = undefined as typeof VIEWER | undefined) {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-dns').click();
  await page.waitForURL(/\/admin\/\d+\/service\/dns\/$/);
  await page.locator(ROWS).first().waitFor();
}

async function openImport(page: Page) {
  await page.getByTestId('dns-toolbar').click();
  await page.getByTestId('dns-import').click();
  await dialog(page, 'dns-import-modal').waitFor();
}

const badge = (page: Page, key: string) => page.getByTestId(`dns-import-count-${key}`).textContent();

describe.skipIf(!chromiumAvailable())('DNS zone import', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openZone(page, server.url));
  let server: PanelServer;
  let page: Page;
  let zoneUrl: string;

  beforeAll(() => {
    ({ server, page } = suite);
    zoneUrl = page.url();
  });

  async function freshZone() {
    await page.goto(zoneUrl);
    await page.locator(ROWS).first().waitFor();
  }

  it('pasted file: the preview counts and lists what changes, each refused line with its reason; apply imports it', async () => {
    await freshZone();
    await openImport(page);
    // nothing to preview yet: the field says so
    await page.getByTestId('dns-import-preview').click();
    expect(await fieldError(page.getByTestId('dns-import-text'))).toBe('Este campo es obligatorio');

    await page.getByTestId('dns-import-text').fill(FILE);
    await page.getByTestId('dns-import-preview').click();
    await page.getByTestId('dns-import-result').waitFor();
    expect(await badge(page, 'added')).toBe('Añadidos: 2');
    // the provider has not turned AXFR on: no name server field
    expect(await page.getByTestId('dns-import-server').count()).toBe(0);
    expect(await badge(page, 'removed')).toBe('Eliminados: 0');
    expect(await badge(page, 'refused')).toBe('Rechazados: 1');
    expect(await badge(page, 'kept')).toBe('Del proveedor: 1');
    const refused = await page.getByTestId('dns-import-refused').textContent();
    expect(refused).toContain('Línea 7');
    expect(refused).toContain('1        IN PTR  host.demo.test.');
    expect(refused).toContain('El panel no admite registros PTR');
    expect(await page.getByTestId('dns-import-added').textContent()).toContain('notes TXT first part, second part');
    expect(await page.getByTestId('dns-import-kept').textContent()).toContain('El SOA es el del proveedor');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('dns-import-apply').click();
    await waitToast(page, 'Zona importada');
    await dialog(page, 'dns-import-modal').waitFor({ state: 'detached' });
    await page.getByTestId('dns-filter').fill('imported');
    await page.waitForFunction(
      (selector) =>
        Array.from(document.querySelectorAll(selector)).some((tr) => tr.textContent?.includes('198.51.100.44')),
      ROWS,
    );
  });

  it('a second SPF record is a conflict the customer settles; an RRset’s new TTL lists its other records as changed', async () => {
    await freshZone();
    await openImport(page);
    const text =
      '$ORIGIN demo.test.\n@ IN TXT "v=spf1 include:_spf.other.example -all"\nimported 1800 IN A 198.51.100.47\n';
    await page.getByTestId('dns-import-text').fill(text);
    await page.getByTestId('dns-import-preview').click();
    await page.getByTestId('dns-import-conflicts').waitFor();
    expect(await page.getByTestId('dns-import-conflicts').textContent()).toContain('Ahora en la zona (SPF): v=spf1');
    // imported.demo.test A (198.51.100.44, 10 min) takes the file's 30 min: changed, though not in the file
    expect(await badge(page, 'changed')).toBe('Cambiados: 1');
    expect(await page.getByTestId('dns-import-changed').textContent()).toContain('198.51.100.44');
    expect(await badge(page, 'removed')).toBe('Eliminados: 0');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('dns-import-conflict-replace').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="dns-import-count-removed"]')?.textContent === 'Eliminados: 1',
    );
    // a replace the customer chose is applied without a second question
    await page.getByTestId('dns-import-apply').click();
    await waitToast(page, 'Zona importada');
    await dialog(page, 'dns-import-modal').waitFor({ state: 'detached' });
    await page.getByTestId('dns-filter').fill('spf1');
    await page.waitForFunction((selector) => {
      const found = Array.from(document.querySelectorAll(selector)).map((tr) => tr.textContent ?? '');
      return found.length === 1 && found[0]?.includes('_spf.other.example');
    }, ROWS);
  });

  it('an edit after the preview drops it; replace asks before it removes records', async () => {
    await freshZone();
    await openImport(page);
    await page.getByTestId('dns-import-text').fill('only 600 IN A 198.51.100.45\n');
    await page.getByTestId('dns-import-preview').click();
    await page.getByTestId('dns-import-result').waitFor();
    await page.getByTestId('dns-import-replace').click();
    // the mode changed: the preview is gone and apply waits for a new one
    await page.getByTestId('dns-import-result').waitFor({ state: 'detached' });
    expect(await page.getByTestId('dns-import-apply').isDisabled()).toBe(true);

    await page.getByTestId('dns-import-preview').click();
    await page.getByTestId('dns-import-removed').waitFor();
    expect(await badge(page, 'removed')).not.toBe('Eliminados: 0');
    await page.getByTestId('dns-import-apply').click();
    await page.getByTestId('dns-import-confirm').waitFor();
    expect(await page.getByTestId('dns-import-apply').textContent()).toBe('Eliminar y aplicar');
    await page.getByTestId('dns-import-apply').click();
    await waitToast(page, 'Zona importada');
    await dialog(page, 'dns-import-modal').waitFor({ state: 'detached' });
    // the provider's two name servers and the file's one record
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 3, ROWS);
  });

  it('keyboard: the menu item opens it, the fields are reachable in order, double Escape closes it', async () => {
    await freshZone();
    await page.getByTestId('dns-toolbar').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('dns-import').waitFor();
    await page.getByTestId('dns-import').focus();
    await page.keyboard.press('Enter');
    await dialog(page, 'dns-import-modal').waitFor();
    await page.getByTestId('dns-import-text').focus();
    await page.keyboard.type('kb 600 IN A 198.51.100.46');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('dns-import-file');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('merge');
    await page.getByTestId('dns-import-preview').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('dns-import-result').waitFor();
    await closeWithDoubleEscape(page, dialog(page, 'dns-import-modal'));
  });

  it('on a phone the dialog takes the screen and nothing sticks out sideways', async () => {
    const context = await newContext(suite.browser, PHONE);
    const phone = await context.newPage();
    const errors = trackErrors(phone);
    // the side menu is behind the burger on a phone: straight to the zone
    await loginNoCaptcha(phone, server.url);
    await phone.goto(zoneUrl);
    // a phone shows the records as cards, not table rows
    await phone.getByTestId('dns-list').locator('[data-type]').first().waitFor();
    await openImport(phone);
    await phone.getByTestId('dns-import-text').fill(FILE);
    await phone.getByTestId('dns-import-preview').click();
    await phone.getByTestId('dns-import-result').waitFor();
    expect(await pageWidth(phone)).toBeLessThanOrEqual(PHONE.width);
    const box = await dialog(phone, 'dns-import-modal').boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(PHONE.width);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a read-only user is not offered the import', async () => {
    const context = await newContext(suite.browser);
    const viewer = await context.newPage();
    await openZone(viewer, server.url, VIEWER);
    await viewer.getByTestId('dns-toolbar').click();
    await viewer.getByTestId('dns-export').waitFor();
    expect(await viewer.getByTestId('dns-import').count()).toBe(0);
    await context.close();
  });
});
