import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { describeFocus } from '../support/keyboard';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { apiFromPage, dialog, fieldError, titleOnceSet, waitToast } from '../support/ui';

const MAILBOXES = '[data-testid="spam-mailboxes"] [data-name]';
const SENDERS = '[data-testid="spam-senders"] [data-name]';
/** The narrowest phone in common use (an iPhone SE, a 12 mini). */
const SMALL_PHONE = { width: 375, height: 812 };

/** Logs in and opens demo.test's spam filter through the side menu (no id guessed). */
async function openSpam(page: Page, baseUrl: string): Promise<void> {
  await loginNoCaptcha(page, baseUrl);
  await page.getByTestId('side-menu').getByTestId('menu-item-mail-spam').click();
  await page.waitForURL(/\/admin\/\d+\/service\/mail\/spam\/$/);
  await page.locator(MAILBOXES).first().waitFor();
}

const mailbox = (page: Page, user: string) => page.locator(`${MAILBOXES}[data-name="${user}"]`);
const sender = (page: Page, name: string) => page.locator(`${SENDERS}[data-name="${name}"]`);

describe.skipIf(!chromiumAvailable())('spam filter', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openSpam(page, server.url));
  let page: Page;
  let spamUrl: string;
  let serviceId: string;

  beforeAll(() => {
    page = suite.page;
    spamUrl = page.url();
    serviceId = /\/admin\/(\d+)\//.exec(spamUrl)?.[1] ?? '';
  });

  it('opens from the side menu: the mailboxes, empty lists and nothing filtered yet', async () => {
    expect(await titleOnceSet(page, 'Filtro de spam · demo.test / Panel247 Demo Hosting')).toBe(
      'Filtro de spam · demo.test / Panel247 Demo Hosting',
    );
    const trail = page.getByRole('navigation', { name: 'Ruta de navegación' });
    expect(await trail.textContent()).toContain('demo.test/Correo/Filtro de spam');
    expect(await mailbox(page, 'soporte').getByTestId('spam-mailbox-mode').textContent()).toBe('Desactivado');
    await page.getByText('Todavía no hay remitentes en las listas').waitFor();
    // the embedded mail driver keeps no mail: nothing filtered (and never "did not answer")
    await page.getByText('No se ha filtrado nada en los últimos 7 días').waitFor();
    expect(await page.getByTestId('spam-filtered-unknown').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('is linked from the mail view', async () => {
    await page.getByTestId('side-menu').getByTestId('menu-item-mail').click();
    await page.waitForURL(/\/admin\/\d+\/mail\/$/);
    await page.getByTestId('mail-spam-link').click();
    await page.waitForURL(/\/service\/mail\/spam\/$/);
    await page.locator(MAILBOXES).first().waitFor();
  });

  it('moves a mailbox’s spam to Junk from score 5, kept after a reload', async () => {
    await mailbox(page, 'soporte').getByTestId('spam-mailbox-edit').click();
    const form = dialog(page, 'spam-mailbox-modal');
    await form.getByTestId('spam-mailbox-form').waitFor();
    await form.getByRole('radio', { name: 'Mover a Junk' }).check();
    await form.getByTestId('spam-threshold').fill('5');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByTestId('spam-mailbox-submit').click();
    await waitToast(page, 'Filtro de spam guardado');
    await form.waitFor({ state: 'detached' });

    await page.reload();
    await page.locator(MAILBOXES).first().waitFor();
    expect(await mailbox(page, 'soporte').getByTestId('spam-mailbox-mode').textContent()).toBe('Mover a Junk');
    expect(await mailbox(page, 'soporte').getByTestId('spam-mailbox-threshold').textContent()).toBe('5');
    const saved = await apiFromPage<{ data: { mailboxes: { user: string; mode: string; threshold: number }[] } }>(
      page,
      `service/${serviceId}/mail/spam/`,
    );
    expect(saved.data.mailboxes.find((one) => one.user === 'soporte')).toMatchObject({ mode: 'junk', threshold: 5 });
  });

  it('blocks a sender, refuses a bad one and the same one on the other list, each on its field', async () => {
    const input = page.getByTestId('spam-sender-input');
    await input.fill('no es un remitente');
    await page.getByTestId('spam-sender-add').click();
    expect(await fieldError(input)).toBe('Escribe una dirección (nombre@dominio.com) o un dominio (dominio.com)');

    await input.fill('Ofertas.Example');
    await page.getByTestId('spam-sender-add').click();
    await waitToast(page, 'Remitente añadido a la lista');
    await sender(page, 'ofertas.example').waitFor();
    expect(await sender(page, 'ofertas.example').getAttribute('data-list')).toBe('block');
    expect(await input.inputValue()).toBe('');

    // the server's own rule: a sender on one list cannot join the other
    await page.getByTestId('spam-sender-list').selectOption('allow');
    await input.fill('ofertas.example');
    await page.getByTestId('spam-sender-add').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="spam-sender-input"]')?.getAttribute('aria-invalid') === 'true',
    );
    expect(await fieldError(input)).toBe('Ese remitente está en la lista de bloqueados: quítalo de ella antes');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('removes the sender from the keyboard, once confirmed', async () => {
    await sender(page, 'ofertas.example').getByTestId('spam-sender-remove').focus();
    await page.keyboard.press('Enter');
    const confirm = dialog(page, 'spam-sender-remove-modal');
    await confirm.waitFor();
    // Cancel has the focus (Enter never confirms by accident): Tab to the confirmation
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancelar');
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toBe('button:Quitar');
    await page.keyboard.press('Enter');
    await waitToast(page, 'Remitente quitado de la lista');
    await page.getByText('Todavía no hay remitentes en las listas').waitFor();
    const left = await apiFromPage<{ data: { senders: unknown[] } }>(page, `service/${serviceId}/mail/spam/`);
    expect(left.data.senders).toEqual([]);
  });

  it('on a small phone, the mailboxes stack into cards and nothing overflows sideways', async () => {
    await page.setViewportSize(SMALL_PHONE);
    try {
      await page.reload();
      await page.locator(MAILBOXES).first().waitFor();
      expect(await page.getByTestId('spam-mailboxes').getAttribute('data-layout')).toBe('stacked');
      const soporte = mailbox(page, 'soporte');
      for (const locator of [soporte.getByTestId('spam-mailbox-address'), soporte.getByTestId('spam-mailbox-edit')]) {
        const box = await insideViewport(locator);
        expect(box.visible).toBe(true);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(SMALL_PHONE.width);
      }
      const add = await insideViewport(page.getByTestId('spam-sender-add'));
      expect(add.right).toBeLessThanOrEqual(SMALL_PHONE.width);
      expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
