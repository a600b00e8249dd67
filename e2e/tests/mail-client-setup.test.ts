import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext, trackErrors } from '../support/browser';
import { type Credentials, loginNoCaptcha } from '../support/panel';
import type { PanelServer } from '../support/server';
import { browserSuite } from '../support/suite';
import { dialog } from '../support/ui';

const ROWS = '[data-testid="mail-list"] tbody tr[data-name]';
const ALIAS_ONLY: Credentials = { domain: 'demo.test', user: 'solo-alias', password: 'panel247-alias-only' };

async function openConnection(page: Page, baseUrl: string, credentials?: Credentials) {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-mail').click();
  await page.waitForURL(/\/admin\/\d+\/mail\/$/);
  await page.locator(ROWS).first().waitFor();
  await page.getByTestId('mail-connection').click();
  const connection = dialog(page, 'mail-connection-modal');
  await connection.getByTestId('mail-connection-table').waitFor();
  return connection;
}

describe.skipIf(!chromiumAvailable())('Mail client set-up in the connection data dialog', () => {
  const suite = browserSuite({ captcha: 'none' }, async (server) => {
    // a user who sees the mail area and manages aliases, but may not read the mailboxes
    await server.cli([
      'user',
      'add',
      '--domain',
      'demo.test',
      '--user',
      ALIAS_ONLY.user,
      '--password',
      ALIAS_ONLY.password,
    ]);
    await server.cli([
      'permission',
      'set',
      '--domain',
      'demo.test',
      '--user',
      ALIAS_ONLY.user,
      '--reference',
      'demo.test',
      '--key',
      'servicemail=read',
      '--key',
      'servicemail_alias=write',
    ]);
  });
  let server: PanelServer;
  let browser: Browser;
  beforeAll(() => {
    ({ server, browser } = suite);
  });

  it('shows the ports and offers a mailbox’s .mobileconfig, found by typing, without its password', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = trackErrors(page);
    try {
      const connection = await openConnection(page, server.url);
      expect(await connection.getByTestId('mail-connection-ports').textContent()).toBe(
        'Puertos: IMAP 143 con STARTTLS y 993 con SSL; SMTP 587 con STARTTLS y 465 con SSL. El envío pide usuario y contraseña.',
      );
      const section = connection.getByTestId('mail-mobileconfig');
      expect(await section.getByRole('heading', { name: 'iPhone, iPad y Mac' }).count()).toBe(1);
      const download = section.getByTestId('mail-mobileconfig-download');
      expect(await download.isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      // the mailboxes are searched on the server as one types; aliases are never offered
      const mailbox = section.getByTestId('mail-mobileconfig-mailbox');
      await mailbox.click();
      await page.getByRole('option', { name: 'info@demo.test' }).waitFor();
      expect(await page.getByRole('option', { name: 'contacto@demo.test' }).count()).toBe(0);
      await mailbox.fill('sop');
      await page.getByRole('option', { name: 'soporte@demo.test' }).click();
      expect(await mailbox.inputValue()).toBe('soporte@demo.test');
      expect(await download.isDisabled()).toBe(false);

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toBe('soporte@demo.test.mobileconfig');
      const profile = await readFile(await file.path(), 'utf8');
      expect(profile).toContain('<string>com.apple.mail.managed</string>');
      expect(profile).toContain('<string>soporte@demo.test</string>');
      // the demo brand's fixed SSL host and the SSL ports, as the table above shows them
      expect(profile).toContain('<string>ssl.demohosting.test</string>');
      expect(profile).toMatch(/<key>IncomingMailServerPortNumber<\/key>\s*<integer>993<\/integer>/);
      expect(profile).toMatch(/<key>OutgoingMailServerPortNumber<\/key>\s*<integer>465<\/integer>/);
      expect(profile).not.toMatch(/<key>(Incoming|Outgoing)Password<\/key>/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('offers no .mobileconfig to a user who may not read the mailboxes', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      const connection = await openConnection(page, server.url, ALIAS_ONLY);
      expect(await connection.getByTestId('mail-connection-ports').count()).toBe(1);
      expect(await connection.getByTestId('mail-mobileconfig').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('fits a phone: the choice and the button stay within the screen', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      // the side menu is a drawer on a phone: open the mail view first, then turn into one
      await (await openConnection(page, server.url)).press('Escape');
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId('mail-connection').click();
      const connection = dialog(page, 'mail-connection-modal');
      await connection.getByTestId('mail-connection-table').waitFor();
      for (const testId of ['mail-mobileconfig-mailbox', 'mail-mobileconfig-download']) {
        const control = connection.getByTestId(testId);
        await control.scrollIntoViewIfNeeded();
        const box = await control.boundingBox();
        expect(box, testId).not.toBeNull();
        expect(box?.x ?? -1, testId).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? 0), testId).toBeLessThanOrEqual(390);
      }
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
