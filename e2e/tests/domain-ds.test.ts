import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import type { PanelServer } from '../support/server';
import { pageSuite } from '../support/suite';

/**
 * demo.test starts on the provider's name servers with two DS records (the demo seed): moving it
 * to other servers warns, and removes the DS records in the same change unless kept explicitly.
 */
describe.skipIf(!chromiumAvailable())('name servers away from the provider with DS records', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => loginNoCaptcha(page, server.url));
  let server: PanelServer;
  let page: Page;

  beforeAll(() => {
    ({ server, page } = suite);
  });

  async function openEdit() {
    await page.goto(`${server.url}/admin/1/domain/`);
    await page.getByTestId('dns-card').waitFor();
    await page.getByTestId('dns-menu').click();
    await page.getByTestId('dns-menu-edit').click();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    const modal = page.getByTestId('dns-edit-modal');
    await modal.getByTestId('dns-edit-form').waitFor();
    return modal;
  }

  it('warns, offers removal by default, and removes the DS records with the change', async () => {
    expect(await (await openEdit()).getByTestId('dns-ds-warning').count()).toBe(0);
    const modal = page.getByTestId('dns-edit-modal');
    await modal.getByRole('radio', { name: 'Servidores personalizados' }).check();
    const warning = modal.getByTestId('dns-ds-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('los resolutores que validan DNSSEC dejarían de resolver el dominio');
    expect(await modal.getByRole('radio', { name: /Quitarlos en el mismo cambio/ }).isChecked()).toBe(true);
    expect(await modal.getByRole('radio', { name: /Mantenerlos/ }).isChecked()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    // back to the provider's servers: nothing at stake, no warning
    await modal.getByRole('radio', { name: 'Los servidores del proveedor' }).check();
    expect(await warning.count()).toBe(0);
    await modal.getByRole('radio', { name: 'Servidores personalizados' }).check();
    await modal.getByTestId('dns-row-0').fill('ns1.demo.test');
    await modal.getByTestId('dns-row-1').fill('mail.demo.test');
    await modal.getByTestId('dns-edit-submit').click();
    await modal.waitFor({ state: 'hidden' });
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: /Servidores DNS guardados/ })
      .first()
      .waitFor();
    // the card shows the saved mode once its refetch has answered, which may follow the dialog's close
    await expect.poll(() => page.getByTestId('dns-mode').textContent()).toBe('Personalizados');
    // the DNSSEC card has no DS left
    await page.reload();
    await page.getByTestId('dns-card').waitFor();
    await page.getByTestId('dnssec-preview').getByText('No hay registros DNSSEC').waitFor();
    expect(await page.getByTestId('dnssec-preview-item').count()).toBe(0);
  });

  it('keeps them when chosen: back to the provider, add one, move away keeping it', async () => {
    const modal = await openEdit();
    // the servers are someone else's now: going back to the provider's asks nothing
    await modal.getByRole('radio', { name: 'Los servidores del proveedor' }).check();
    expect(await modal.getByTestId('dns-ds-warning').count()).toBe(0);
    await modal.getByTestId('dns-edit-submit').click();
    await modal.waitFor({ state: 'hidden' });
    const created = await page.evaluate(async () => {
      const body = new URLSearchParams({ keytag: '4242', algorithm: '13', digesttype: '2', digest: 'ab'.repeat(32) });
      const answer = await fetch('/p247/domain/1/dnssec/create/', {
        method: 'POST',
        headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      return answer.status;
    });
    expect(created).toBe(200);
    const again = await openEdit();
    await again.getByRole('radio', { name: 'Servidores personalizados' }).check();
    expect(await again.getByTestId('dns-ds-warning').textContent()).toContain('1 registro DS');
    await again.getByRole('radio', { name: /Mantenerlos/ }).check();
    await again.getByTestId('dns-row-0').fill('ns1.demo.test');
    await again.getByTestId('dns-row-1').fill('mail.demo.test');
    await again.getByTestId('dns-edit-submit').click();
    await again.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByTestId('dns-card').waitFor();
    await page.getByTestId('dnssec-preview-item').first().waitFor();
    expect(await page.getByTestId('dnssec-preview').textContent()).toContain('4242');
  });

  it('back to the provider’s servers with the hosted zone signed, offers to publish its DS (ticked)', async () => {
    // The e2e server's embedded DNS signs nothing: the offer is given by the answer PowerDNS's
    // signed zone would produce (the integration test proves that answer against PowerDNS).
    await page.route('**/p247/domains/1/dnsinit/**', async (route) => {
      // a refetch still in flight when the route is taken away is simply dropped
      try {
        const answer = await route.fetch();
        const body = await answer.json();
        body.data.zoneDsRecords = 1;
        await route.fulfill({ response: answer, json: body });
      } catch {
        // the page moved on
      }
    });
    try {
      const modal = await openEdit();
      expect(await modal.getByTestId('dns-publish-ds').count()).toBe(0);
      await modal.getByRole('radio', { name: 'Los servidores del proveedor' }).check();
      const publish = modal.getByRole('checkbox', { name: /Publicar en el registro el registro DS/ });
      expect(await publish.isChecked()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().includes('/p247/domain/1/dnsedit/') && r.method() === 'POST'),
        modal.getByTestId('dns-edit-submit').click(),
      ]);
      expect(new URLSearchParams(request.postData() ?? '').get('publishDs')).toBe('1');
      await modal.waitFor({ state: 'hidden' });
      await expect.poll(() => page.getByTestId('dns-mode').textContent()).toBe('Del proveedor');
    } finally {
      await page.unroute('**/p247/domains/1/dnsinit/**');
    }
  });
});
