import { createHash, generateKeyPairSync } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext } from '../support/browser';
import { closeWithDoubleEscape } from '../support/keyboard';
import { loginNoCaptcha, VIEWER } from '../support/panel';
import type { PanelServer } from '../support/server';
import { pageSuite } from '../support/suite';
import { titleOnceSet } from '../support/ui.ts';

/** A fresh ECDSA P-256 public key as a DNSKEY's base64 field, and the DS the server must compute for it. */
function dnskeyAndDs(owner: string, flags = 257, protocol = 3, algorithm = 13) {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const key = Buffer.concat([Buffer.from(jwk.x ?? '', 'base64url'), Buffer.from(jwk.y ?? '', 'base64url')]);
  const rdata = Buffer.concat([Buffer.from([flags >> 8, flags & 0xff, protocol, algorithm]), key]);
  // RFC 4034 appendix B
  let sum = 0;
  rdata.forEach((byte, index) => {
    sum += index % 2 === 0 ? byte << 8 : byte;
  });
  sum += (sum >> 16) & 0xffff;
  const keytag = sum & 0xffff;
  const wire = Buffer.concat([
    ...owner
      .toLowerCase()
      .split('.')
      .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')])),
    Buffer.from([0]),
  ]);
  const digest = createHash('sha256')
    .update(Buffer.concat([wire, rdata]))
    .digest('hex');
  return { base64: key.toString('base64'), keytag, digest };
}

async function openDnsMenu(page: Page, item: string): Promise<void> {
  await page.getByTestId('dns-menu').click();
  await page.getByTestId(item).click();
  // the menu's closing transition leaves an empty role=menu for a moment
  await page.getByRole('menu').waitFor({ state: 'detached' });
}

async function chooseOption(page: Page, testId: string, search: string, option: string): Promise<void> {
  const input = page.getByTestId(testId);
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Waits for a toast, then closes it: toasts sit at the bottom right, where a dialog's buttons are,
 * and one under the pointer stops its own timer, so a later click there could wait for good.
 */
async function toast(page: Page, text: string | RegExp): Promise<void> {
  const shown = page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
  await shown.waitFor();
  await shown
    .locator('.mantine-Notification-closeButton')
    .click({ timeout: 5000 })
    .catch(() => undefined);
}

/** The domain view against the real server and its demo data (demo.test id 1, shop-demo.test id 2). */
describe.skipIf(!chromiumAvailable())('domain view', () => {
  // the page's errors are checked by the last test
  const suite = pageSuite({ captcha: 'none' }, (page, server) => loginNoCaptcha(page, server.url), {
    clipboard: true,
    checkErrors: false,
  });
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(() => {
    ({ server, browser, page, errors } = suite);
  });
  afterAll(() => {
    if (process.env.E2E_LOGS) console.log(server?.logs().slice(-4000));
  });

  /** demo.test's domain view on a fresh page: nothing an earlier test left open covers a menu. */
  async function freshDomain(): Promise<void> {
    await page.goto(`${server.url}/admin/1/domain/`);
    await page.getByTestId('dns-card').waitFor();
  }

  it('shows the three cards with the demo data and no serious axe violation', async () => {
    await freshDomain();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('demo.test');
    expect(await titleOnceSet(page, 'demo.test / Panel247 Demo Hosting')).toBe('demo.test / Panel247 Demo Hosting');
    expect(await page.getByTestId('dns-mode').textContent()).toBe('Del proveedor');
    expect(await page.getByTestId('dns-servers').textContent()).toContain('ns1.panel247.test');
    await page.getByTestId('glue-preview-item').first().waitFor();
    expect(await page.getByTestId('glue-preview-item').count()).toBe(2);
    expect(await page.getByTestId('glue-preview-more').count()).toBe(0);
    expect(await page.getByTestId('dnssec-preview-item').count()).toBe(2);
    expect(await page.getByTestId('contact-name-registrant').textContent()).toBe('Demo Hosting S.L.');
    // a row opens the read-only contact
    await page.getByTestId('contact-open-registrant').click();
    await page.getByTestId('contact-details-registrant').waitFor();
    expect(await page.getByTestId('contact-details-registrant').textContent()).toContain('VAT');
    expect(await page.getByTestId('contact-registrant-ident').textContent()).toBe('B12345674');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('edits the name servers: provider preselected, 2 to 7 rows, first 2 fixed, resolution errors, custom save', async () => {
    await freshDomain();
    await openDnsMenu(page, 'dns-menu-edit');
    const modal = page.getByTestId('dns-edit-modal');
    await modal.getByTestId('dns-default-servers').waitFor();
    expect(await modal.getByRole('radio', { name: 'Los servidores del proveedor' }).isChecked()).toBe(true);
    expect(await modal.getByTestId('dns-propagation').textContent()).toContain('24 horas');
    await modal.getByRole('radio', { name: 'Servidores personalizados' }).check();
    const rows = modal.locator('[data-testid^="dns-row-"]:not([data-testid^="dns-row-remove"])');
    expect(await rows.count()).toBe(2);
    expect(await modal.getByTestId('dns-row-0').inputValue()).toBe('');
    for (let count = 3; count <= 7; count++) {
      await modal.getByTestId('dns-add-row').click();
      expect(await rows.count()).toBe(count);
    }
    expect(await modal.getByTestId('dns-add-row').count()).toBe(0);
    expect(await modal.getByTestId('dns-row-remove-0').count()).toBe(0);
    expect(await modal.getByTestId('dns-row-remove-1').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    for (let index = 6; index >= 3; index--) await modal.getByTestId(`dns-row-remove-${index}`).click();
    expect(await rows.count()).toBe(3);
    expect(await modal.getByTestId('dns-add-row').isVisible()).toBe(true);
    // switching the choice resets the custom rows
    await modal.getByTestId('dns-row-0').fill('ns1.demo.test');
    await modal.getByRole('radio', { name: 'Los servidores del proveedor' }).check();
    await modal.getByRole('radio', { name: 'Servidores personalizados' }).check();
    expect(await rows.count()).toBe(2);
    expect(await modal.getByTestId('dns-row-0').inputValue()).toBe('');
    // a server that does not resolve: the server names its row
    await modal.getByTestId('dns-row-0').fill('ns1.demo.test');
    await modal.getByTestId('dns-row-1').fill('ns2.demo.test');
    await modal.getByTestId('dns-add-row').click();
    await modal.getByTestId('dns-row-2').fill('nowhere.demo.test');
    await modal.getByTestId('dns-edit-submit').click();
    await modal.getByText('Este servidor no resuelve a ninguna dirección IP').waitFor();
    expect(await modal.getByTestId('dns-row-2').getAttribute('aria-invalid')).toBe('true');
    await modal.getByTestId('dns-row-2').fill('mail.demo.test');
    // demo.test has DS records: leaving the provider's servers warns; this test keeps them (the
    // removal is e2e/tests/domain-ds.test.ts's)
    await modal.getByTestId('dns-ds-warning').waitFor();
    await modal.getByTestId('dns-ds-keep').check();
    await modal.getByTestId('dns-edit-submit').click();
    await modal.waitFor({ state: 'hidden' });
    await toast(page, /Servidores DNS guardados/);
    expect(await page.getByTestId('dns-mode').textContent()).toBe('Personalizados');
    expect(await page.getByTestId('dns-servers').locator('li').allTextContents()).toEqual([
      'ns1.demo.test',
      'ns2.demo.test',
      'mail.demo.test',
    ]);
  });

  it('creates, edits and deletes a glue record; the IP input rules; show more after 2', async () => {
    await freshDomain();
    await openDnsMenu(page, 'dns-menu-glue-create');
    const modal = page.getByTestId('glue-create-modal');
    await modal.getByTestId('glue-name').fill('ns3');
    // letters stripped, a dot after 3 digits
    await modal.getByTestId('glue-ip').pressSequentially('19a2168');
    expect(await modal.getByTestId('glue-ip').inputValue()).toBe('192.168');
    await modal.getByTestId('glue-submit').click();
    await modal.getByText('IP Invalida').waitFor();
    await modal.getByTestId('glue-ip').fill('');
    await modal.getByTestId('glue-ip').pressSequentially('198.51.100.7');
    await modal.getByTestId('glue-ipv6').fill('2001:db8::7');
    await modal.getByTestId('glue-submit').click();
    await modal.waitFor({ state: 'hidden' });
    await toast(page, 'Registro glue creado');
    await page.getByTestId('glue-preview-more').waitFor();
    expect(await page.getByTestId('glue-preview-item').count()).toBe(2);
    await page.getByTestId('glue-preview-more').click();
    expect(await page.getByTestId('glue-preview-item').count()).toBe(3);
    expect(await page.getByTestId('glue-preview').textContent()).toContain('ns3.demo.test');

    await openDnsMenu(page, 'dns-menu-glue-list');
    const list = page.getByTestId('glue-list-modal');
    const row = list.getByTestId('glue-row').filter({ hasText: 'ns3.demo.test' });
    await row.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByTestId('glue-edit').click();
    const edit = page.getByTestId('glue-edit-modal');
    await edit.getByTestId('glue-ip').fill('198.51.100.8');
    await edit.getByTestId('glue-submit').click();
    await toast(page, 'Registro glue guardado');
    await list.getByTestId('glue-row').filter({ hasText: '198.51.100.8' }).waitFor();
    await list.getByTestId('glue-row').filter({ hasText: 'ns3.demo.test' }).getByTestId('glue-delete').click();
    const confirm = page.getByTestId('glue-delete-modal');
    // the dialog's body mounts with its transition: wait for the text rather than read it at once
    await confirm.getByText('ns3.demo.test', { exact: false }).waitFor();
    await confirm.getByTestId('glue-delete-modal-confirm').click();
    await toast(page, 'Registro glue eliminado');
    await list.getByTestId('glue-row').first().waitFor();
    await page.waitForFunction(() => !document.body.textContent?.includes('198.51.100.8'));
    expect(await list.getByTestId('glue-row').count()).toBe(2);
    await closeWithDoubleEscape(page, list, 'hidden');
    expect(await page.getByTestId('glue-preview-more').count()).toBe(0);
  });

  it('adds a DS by digest (exact hex length by type) and deletes it', async () => {
    await freshDomain();
    await openDnsMenu(page, 'dns-menu-dnssec-create');
    const modal = page.getByTestId('dnssec-create-modal');
    await modal.getByTestId('dnssec-keytag').fill('12345');
    await modal.getByTestId('dnssec-digest').fill('ab'.repeat(20));
    await modal.getByTestId('dnssec-submit').click();
    await modal.getByText('Para este tipo el digest tiene 64 caracteres hexadecimales').waitFor();
    const digest = 'c0ffee'.repeat(11).slice(0, 64);
    await modal.getByTestId('dnssec-digest').fill(digest);
    await modal.getByTestId('dnssec-submit').click();
    await modal.waitFor({ state: 'hidden' });
    await toast(page, 'Registro DNSSEC añadido');
    await page.getByTestId('dnssec-preview-more').waitFor();
    await page.getByTestId('dnssec-preview-more').click();
    expect(await page.getByTestId('dnssec-preview').textContent()).toContain('12345');

    await openDnsMenu(page, 'dns-menu-dnssec-list');
    const list = page.getByTestId('dnssec-list-modal');
    const row = list.getByTestId('dnssec-row').filter({ hasText: '12345' });
    await row.waitFor();
    await row.getByTestId('dnssec-delete').click();
    await page.getByTestId('dnssec-delete-modal-confirm').click();
    await toast(page, 'Registro DNSSEC eliminado');
    await list.getByTestId('dnssec-row').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="dnssec-row"]').length === 2);
    expect(await list.textContent()).not.toContain('12345');
  });

  it('flips each toggle (disabled while running) and shows the auth code with a copy button', async () => {
    await page.goto(`${server.url}/admin/1/domain/`);
    const card = page.getByTestId('actions-card');
    await card.waitFor();
    for (const [name, label] of [
      ['block', 'Bloqueo de modificación'],
      ['transferblock', 'Bloqueo de transferencia'],
      ['whoisprivacy', 'Privacidad whois'],
    ] as const) {
      const toggle = page.getByRole('switch', { name: label });
      expect(await toggle.isChecked(), name).toBe(false);
      await toggle.click();
      await page.waitForFunction(
        (id) => (document.querySelector(`[data-testid="toggle-${id}"]`) as HTMLInputElement | null)?.checked === true,
        name,
      );
      await toast(page, /correctamente|Operación/);
    }
    // while its call runs (held here), a toggle is disabled; it comes back with the answer
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/toggle/whoisprivacy/', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('switch', { name: 'Privacidad whois' }).click();
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="toggle-whoisprivacy"]') as HTMLInputElement | null)?.disabled,
    );
    release();
    await page.waitForFunction(() => {
      const input = document.querySelector('[data-testid="toggle-whoisprivacy"]') as HTMLInputElement | null;
      return input && !input.disabled && !input.checked;
    });
    await page.unroute('**/toggle/whoisprivacy/');
    // the server kept them
    await page.reload();
    await page.getByRole('switch', { name: 'Privacidad whois' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Bloqueo de modificación' }).isChecked()).toBe(true);

    await page.getByTestId('show-secret').click();
    const modal = page.getByTestId('secret-modal');
    expect(await modal.getByRole('heading').textContent()).toBe('Código de autorización');
    await modal.getByTestId('secret-value').waitFor();
    const code = (await modal.getByTestId('secret-value').textContent()) ?? '';
    expect(code.length).toBeGreaterThan(5);
    await modal.getByRole('button', { name: 'Copiar' }).click();
    await modal.locator('[data-state="copied"]').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await modal.locator('[data-state="idle"]').waitFor({ timeout: 4000 });
  });

  it('edits a contact with the address lookup and the Spanish id check', async () => {
    await page.goto(`${server.url}/admin/1/domain/`);
    await page.getByTestId('contact-menu-tech').click();
    await page.getByTestId('contact-edit-tech').click();
    const modal = page.getByTestId('contact-edit-modal');
    await modal.getByTestId('contact-form').waitFor();
    expect(await modal.getByTestId('contact-firstName').inputValue()).toBe('Ana');
    // organisation name only for organisations; the VAT/NIF label follows
    expect(await modal.getByTestId('contact-orgName').count()).toBe(0);
    await modal.getByLabel(/^NIF/).waitFor();
    await modal.getByRole('radio', { name: 'Organización' }).check();
    await modal.getByTestId('contact-orgName').waitFor();
    await modal.getByLabel(/^VAT/).waitFor();
    await modal.getByRole('radio', { name: 'Particular' }).check();
    // the copy choices: the other three roles (owner contacts visible)
    await modal.getByTestId('contact-copy').click();
    const copyChoices = page.locator('[data-testid^="contact-copy-"]');
    // the menu opens with a transition: wait for it before counting
    await copyChoices.first().waitFor();
    expect(await copyChoices.count()).toBe(3);
    await page.keyboard.press('Escape');

    await chooseOption(page, 'contact-country', 'Portugal', 'Portugal');
    expect(await modal.getByTestId('contact-state').inputValue()).toBe('');
    await chooseOption(page, 'contact-country', 'Españ', 'España');
    await modal.getByText('Provincia', { exact: false }).first().waitFor();
    await chooseOption(page, 'contact-state', 'Valencia', 'Valencia');
    await chooseOption(page, 'contact-city', 'Alaqu', 'Alaquàs');
    await modal.getByTestId('contact-postalCode').fill('46970');
    await modal.getByTestId('contact-address').fill('Carrer Major 3');
    await modal.getByTestId('contact-identNumber').fill('12345678A');
    await modal.getByTestId('contact-submit').click();
    await modal.getByText('NIF, NIE o CIF no válido').waitFor();
    await modal.getByTestId('contact-identNumber').fill('X1234567L');
    await modal.getByText('NIE válido').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await modal.getByTestId('contact-submit').click();
    await modal.waitFor({ state: 'hidden' });
    await toast(page, 'Contacto guardado');
    await page.getByTestId('contact-open-tech').click();
    expect(await page.getByTestId('contact-tech-locality').textContent()).toContain('Alaquàs');
    expect(await page.getByTestId('contact-tech-ident').textContent()).toBe('X1234567L');
    // only_contact: the admin contact kept its data
    await page.getByTestId('contact-open-admin').click();
    expect(await page.getByTestId('contact-admin-locality').textContent()).toContain('Madrid');
  });

  it('shop-demo.test: glue and DNSSEC shown, custom servers only, a public key gives the computed DS, the transfer key', async () => {
    await page.goto(`${server.url}/admin/2/domain/`);
    await page.getByTestId('dns-card').waitFor();
    // every card has its demo data here too
    await page.getByTestId('glue-preview-item').first().waitFor();
    expect(await page.getByTestId('glue-preview').textContent()).toContain('ns1.shop-demo.test');
    expect(await page.getByTestId('glue-preview-item').count()).toBe(2);
    expect(await page.getByTestId('dnssec-preview-item').count()).toBe(2);
    expect(await page.getByTestId('contact-name-registrant').textContent()).toBe('Demo Hosting S.L.');
    await openDnsMenu(page, 'dns-menu-edit');
    const dns = page.getByTestId('dns-edit-modal');
    await dns.getByTestId('dns-row-0').waitFor();
    expect(await dns.getByRole('radio').count()).toBe(0);
    expect(await dns.getByTestId('dns-row-0').inputValue()).toBe('ns1.demo.test');
    await closeWithDoubleEscape(page, dns, 'hidden');

    const { base64, keytag, digest } = dnskeyAndDs('shop-demo.test');
    await openDnsMenu(page, 'dns-menu-dnssec-create');
    const modal = page.getByTestId('dnssec-create-modal');
    await modal.getByTestId('dnssec-public-key').waitFor();
    expect(await modal.getByTestId('dnssec-flags').inputValue()).toContain('257');
    expect(await modal.getByTestId('dnssec-protocol').inputValue()).toContain('3');
    await modal.getByTestId('dnssec-public-key').fill(base64);
    await modal.getByTestId('dnssec-submit').click();
    await modal.getByTestId('dnssec-created').waitFor();
    expect(await modal.getByTestId('dnssec-created-keytag').textContent()).toBe(String(keytag));
    expect((await modal.getByTestId('dnssec-created-digest').textContent())?.toLowerCase()).toBe(digest);
    await modal.getByTestId('dnssec-created-close').click();
    await modal.waitFor({ state: 'hidden' });
    // the third entry: behind 'show more'
    await page.getByTestId('dnssec-preview-more').click();
    expect(await page.getByTestId('dnssec-preview').textContent()).toContain(String(keytag));

    await page.getByTestId('show-secret').click();
    const secret = page.getByTestId('secret-modal');
    expect(await secret.getByRole('heading').textContent()).toBe('Clave de transferencia');
    await secret.getByTestId('secret-value').waitFor();
    expect(((await secret.getByTestId('secret-value').textContent()) ?? '').length).toBeGreaterThan(5);
    expect(errors).toEqual([]);
  });

  it('the read-only viewer sees status icons and no edit menus', async () => {
    const viewerContext = await newContext(browser);
    const viewer = await viewerContext.newPage();
    await loginNoCaptcha(viewer, server.url, VIEWER);
    await viewer.goto(`${server.url}/admin/1/domain/`);
    await viewer.getByTestId('actions-card').waitFor();
    for (const name of ['block', 'transferblock', 'whoisprivacy']) {
      await viewer.getByTestId(`status-${name}`).waitFor();
      expect(await viewer.getByTestId(`toggle-${name}`).count()).toBe(0);
    }
    // the status icon says the state (the admin switched the modification block on in an earlier test)
    expect(
      await viewer.getByRole('img', { name: /^Bloqueo de modificación: (Activado|Desactivado)$/ }).isVisible(),
    ).toBe(true);
    expect(await viewer.getByTestId('dns-menu').count()).toBe(0);
    expect(await viewer.locator('[data-testid^="contact-menu-"]').count()).toBe(0);
    expect(await viewer.getByTestId('glue-preview-item').count()).toBe(2);
    expect(await seriousViolations(viewer)).toEqual([]);
    await viewerContext.close();
  });
});
