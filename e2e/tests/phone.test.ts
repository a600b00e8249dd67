import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { closeWithDoubleEscape } from '../support/keyboard';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { apiFromPage, dialog } from '../support/ui';

/** Badges whose text is cut ("A…"): their label is wider than the room it is given. */
async function truncatedBadges(page: Page): Promise<string[]> {
  return page
    .locator('.mantine-Badge-label')
    .evaluateAll((labels) =>
      labels.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent ?? ''),
    );
}

/** Host names and addresses that were broken somewhere other than after a dot, `@` or `/`. */
async function hostsBrokenMidLabel(scope: Locator): Promise<string[]> {
  return scope.locator('[data-host]').evaluateAll((hosts) =>
    hosts.flatMap((host) => {
      const broken: string[] = [];
      // each text node sits between two <wbr>: a line break inside one is a break mid-label
      for (const node of Array.from(host.childNodes)) {
        if (node.nodeType !== Node.TEXT_NODE || !node.textContent) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getClientRects().length > 1) broken.push(host.textContent ?? '');
      }
      return broken;
    }),
  );
}

describe.skipIf(!chromiumAvailable())('phone layout (390×844)', () => {
  let itemId = 0;
  const suite = pageSuite(
    { captcha: 'none' },
    async (page, server) => {
      await loginNoCaptcha(page, server.url);
      itemId = Number(/\/admin\/(\d+)\//.exec(new URL(page.url()).pathname)?.[1]);
    },
    { context: PHONE },
  );
  let page: Page;
  let base: string;

  beforeAll(() => {
    page = suite.page;
    base = suite.server.url;
  });

  /**
   * Opens `path`, then checks the list's first row: its identifying value and its first action
   * button are visible and inside the screen; the page does not scroll sideways; no badge is cut.
   */
  async function checkList(path: string, listTestId: string, valueTestId: string | null): Promise<void> {
    await page.goto(`${base}${path}`);
    const list = page.getByTestId(listTestId);
    const row = list.locator('[data-name]').first();
    await row.waitFor();
    expect(await list.getAttribute('data-layout')).toBe('stacked');
    const name = await row.getAttribute('data-name');
    const value = valueTestId ? row.getByTestId(valueTestId) : row.getByText(name ?? '', { exact: true });
    const action = row.getByRole('button').first();
    for (const [what, locator] of [
      ['value', value.first()],
      ['action', action],
    ] as const) {
      const box = await insideViewport(locator);
      expect(box.visible, `${listTestId} ${what}`).toBe(true);
      expect(box.left, `${listTestId} ${what} left`).toBeGreaterThanOrEqual(0);
      expect(box.right, `${listTestId} ${what} right`).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await truncatedBadges(page)).toEqual([]);
    expect(await hostsBrokenMidLabel(list)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  }

  it('DNS: each record shows its value and its edit button', async () => {
    await checkList(`/admin/${itemId}/service/dns/`, 'dns-list', 'dns-value');
    // the SRV record's weight, port and target, named
    await page.getByTestId('dns-filter').fill('_sip');
    const srv = page.getByTestId('dns-list').locator('[data-type="SRV"]').first();
    await srv.waitFor();
    expect(await srv.getByTestId('dns-value').textContent()).toBe('Peso 5 · Puerto 5060 · Destino sip.demo.test');
  });

  it('mail: accounts and aliases with their type badge whole, and the connection data with both columns', async () => {
    await checkList(`/admin/${itemId}/mail/`, 'mail-list', null);
    await page.getByTestId('mail-connection').click();
    const connection = dialog(page, 'mail-connection-modal');
    const table = connection.getByTestId('mail-connection-table');
    await table.waitFor();
    expect(await table.getAttribute('data-layout')).toBe('stacked');
    for (const button of await connection.getByRole('button', { name: /^Copiar el servidor/ }).all()) {
      const box = await insideViewport(button);
      expect(box.right).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await connection.getByText('Con SSL', { exact: true }).count()).toBe(4);
    expect(await hostsBrokenMidLabel(connection)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await closeWithDoubleEscape(page, connection);
  });

  it('sites: the site and its SSL state whole, with its buttons', async () => {
    await checkList(`/admin/${itemId}/service/subdomain/`, 'hosting-site-list', null);
  });

  it('FTP: the account and its folder, with its buttons', async () => {
    await checkList(`/admin/${itemId}/service/ftp/`, 'ftp-list', 'ftp-folder');
  });

  it('databases: the database and its buttons', async () => {
    const created = await apiFromPage<{ data: { ddbb?: { id: number } } }>(
      page,
      `service/${itemId}/ddbb/create/`,
      'password=phone-test-pass',
    );
    try {
      await checkList(`/admin/${itemId}/service/ddbb/`, 'ddbb-list', null);
    } finally {
      await apiFromPage(page, `service/${itemId}/ddbb/${created.data.ddbb?.id}/delete/`, '');
    }
  });

  it('domains: each domain and its manage button', async () => {
    await page.goto(`${base}/admin/domain/`);
    const row = page.getByTestId('resource-list').locator('[data-name]').first();
    await row.waitFor();
    for (const locator of [row.getByText(/\.test$/).first(), row.getByRole('button').first()]) {
      const box = await insideViewport(locator);
      expect(box.visible).toBe(true);
      expect(box.right).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('header: the company name is whole, on up to two lines', async () => {
    await page.goto(`${base}/admin/`);
    const company = page.getByRole('banner').getByText('Panel247 Demo Hosting', { exact: true });
    await company.waitFor();
    expect(await company.evaluate((element) => element.scrollHeight <= element.clientHeight + 1)).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
  });
});
