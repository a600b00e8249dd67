import { generateKeyPairSync } from 'node:crypto';
import type { Page } from 'playwright-core';
import sshpk from 'sshpk';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { apiFromPage, dialog, fieldError, waitInvalid, waitToast } from '../support/ui';

const KEYS = '[data-testid="sftp-keys"] [data-key]';

/** A public key line as a .pub file has it, and its fingerprint as ssh-keygen prints it. */
function publicKey(comment: string) {
  const pem = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const key = sshpk.parseKey(pem, 'pem');
  key.comment = comment;
  return { line: key.toString('ssh'), fingerprint: key.fingerprint('sha256').toString() };
}

/** Logs in and opens demo.test's FTP page through the side menu, down to its SFTP card. */
async function openSftp(page: Page, baseUrl: string): Promise<void> {
  await loginNoCaptcha(page, baseUrl);
  await page.getByTestId('side-menu').getByTestId('menu-item-ftp').click();
  await page.waitForURL(/\/admin\/\d+\/service\/ftp\/$/);
  await page.getByTestId('sftp-connection').waitFor();
}

describe.skipIf(!chromiumAvailable())('SFTP and SSH keys', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openSftp(page, server.url));
  let page: Page;
  let serviceId: string;
  const laptop = publicKey('ana@portatil');

  beforeAll(() => {
    page = suite.page;
    serviceId = /\/admin\/(\d+)\//.exec(page.url())?.[1] ?? '';
  });

  it('shows where SFTP clients connect, below the FTP accounts, with no keys yet', async () => {
    expect(await page.getByTestId('sftp-port').textContent()).toMatch(/^\d+$/);
    await page.getByText('Aún no hay claves SSH.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('adds a key for an FTP account: a private key is refused on its field, the public one listed with its fingerprint', async () => {
    await page.getByTestId('sftp-key-add').click();
    const form = dialog(page, 'sftp-key-modal');
    await form.waitFor();
    // the demo service has no login of its own here (no system users): an account is chosen
    await form.getByTestId('sftp-key-login-select').click();
    await page.getByRole('option').first().click();
    const text = form.getByTestId('sftp-key-text');
    await text.fill('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----');
    await form.getByTestId('sftp-key-submit').click();
    await waitInvalid(page, 'sftp-key-modal', 'sftp-key-text');
    expect(await fieldError(text)).toMatch(/clave privada/);
    expect(await seriousViolations(page)).toEqual([]);
    // a key the browser cannot judge, refused by the server on the same field
    await text.fill('ssh-ed25519 no-es-una-clave');
    await form.getByTestId('sftp-key-submit').click();
    await page.waitForFunction(() =>
      /válida/.test(document.querySelector('[data-testid="sftp-key-modal"]')?.textContent ?? ''),
    );
    await text.fill(laptop.line);
    await form.getByTestId('sftp-key-submit').click();
    await form.waitFor({ state: 'detached' });
    await waitToast(page, 'Clave SSH añadida');
    const row = page.locator(KEYS).first();
    await row.waitFor();
    expect(await row.getByTestId('sftp-key-name').textContent()).toContain('ana@portatil');
    expect(await row.getByTestId('sftp-key-fingerprint').textContent()).toBe(laptop.fingerprint);
    expect(await row.getByTestId('sftp-key-type').textContent()).toContain('ssh-ed25519 · 256 bits');
  });

  it('on a phone, a key shows its fingerprint and its action inside the screen', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.reload();
      await page.locator(KEYS).first().waitFor();
      expect(await page.getByTestId('sftp-keys').getAttribute('data-layout')).toBe('stacked');
      const key = page.locator(KEYS).first();
      for (const locator of [key.getByTestId('sftp-key-fingerprint'), key.getByTestId('sftp-key-remove')]) {
        const box = await insideViewport(locator);
        expect(box.visible).toBe(true);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(PHONE.width);
      }
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('removes the key once confirmed, from the keyboard', async () => {
    await page.reload();
    const row = page.locator(KEYS).first();
    await row.getByTestId('sftp-key-remove').focus();
    await page.keyboard.press('Enter');
    const confirm = dialog(page, 'sftp-remove-modal');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Dejará de abrir');
    await confirm.getByRole('button', { name: 'Quitar' }).click();
    await page.getByText('Aún no hay claves SSH.').waitFor();
    const left = await apiFromPage<{ data: { keys: unknown[] } }>(page, `service/${serviceId}/ftp/keys/`);
    expect(left.data.keys).toEqual([]);
  });
});
