import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { dialog, fieldError, tableRows, waitToast } from '../support/ui';

const ROWS = '[data-testid="mail-list"] tbody tr[data-name]';

async function openMail(page: Page, baseUrl: string): Promise<void> {
  await loginNoCaptcha(page, baseUrl);
  await page.getByTestId('side-menu').getByTestId('menu-item-mail').click();
  await page.waitForURL(/\/admin\/\d+\/mail\/$/);
  await page.locator(ROWS).first().waitFor();
}

const row = (page: Page, name: string) => page.locator(`${ROWS}[data-name="${name}"]`);
const rowText = async (page: Page, name: string) =>
  (await tableRows(page, ROWS, 3)).find((text) => text.startsWith(`${name} |`));

describe.skipIf(!chromiumAvailable())('Mailbox autoresponder, forwarding and quota', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openMail(page, server.url));
  let page: Page;

  beforeAll(() => {
    ({ page } = suite);
  });

  it('sets an autoresponder with dates and a forward, and sees them listed and kept', async () => {
    await row(page, 'soporte@demo.test').getByTestId('mail-rules').click();
    const rules = dialog(page, 'mail-rules-modal');
    await rules.getByTestId('mail-rules-form').waitFor();
    // off at first: its fields wait disabled, forwarding is empty
    expect(await rules.getByTestId('mail-autoreply-subject').isDisabled()).toBe(true);
    expect(await rules.getByTestId('mail-forward').inputValue()).toBe('');

    await rules.getByTestId('mail-autoreply-on').check();
    await rules.getByTestId('mail-rules-submit').click();
    expect(await fieldError(rules.getByTestId('mail-autoreply-subject'))).toBe('Este campo es obligatorio');

    await rules.getByTestId('mail-autoreply-subject').fill('De vacaciones');
    await rules.getByTestId('mail-autoreply-body').fill('Vuelvo el día 10.\nGracias.');
    await rules.getByTestId('mail-autoreply-start').fill('2030-08-01');
    await rules.getByTestId('mail-autoreply-end').fill('2030-08-09');
    await rules.getByTestId('mail-autoreply-days').fill('3');
    await rules.getByTestId('mail-forward').fill('no es una dirección');
    await rules.getByTestId('mail-rules-submit').click();
    expect(await fieldError(rules.getByTestId('mail-forward'))).toBe('Introduce una dirección de correo válida');
    await rules.getByTestId('mail-forward').fill('copia@example.com');
    await rules.getByTestId('mail-forward-keep').uncheck();
    expect(await seriousViolations(page)).toEqual([]);
    await rules.getByTestId('mail-rules-submit').click();
    await waitToast(page, 'Respuesta automática y reenvío guardados');
    await rules.waitFor({ state: 'detached' });

    await row(page, 'soporte@demo.test').getByTestId('mail-autoreply-badge').waitFor();
    expect(await rowText(page, 'soporte@demo.test')).toBe(
      'soporte@demo.test | Cuenta | 0 B de 1 GB (0,00 %)Respuesta automáticaReenvía a 1 dirección',
    );

    // opened again after a reload: what the server kept
    await page.reload();
    await row(page, 'soporte@demo.test').getByTestId('mail-rules').click();
    const again = dialog(page, 'mail-rules-modal');
    await again.getByTestId('mail-rules-form').waitFor();
    expect(await again.getByTestId('mail-autoreply-on').isChecked()).toBe(true);
    expect(await again.getByTestId('mail-autoreply-subject').inputValue()).toBe('De vacaciones');
    expect(await again.getByTestId('mail-autoreply-body').inputValue()).toBe('Vuelvo el día 10.\nGracias.');
    expect(await again.getByTestId('mail-autoreply-start').inputValue()).toBe('2030-08-01');
    expect(await again.getByTestId('mail-autoreply-end').inputValue()).toBe('2030-08-09');
    expect(await again.getByTestId('mail-autoreply-days').inputValue()).toBe('3');
    expect(await again.getByTestId('mail-forward').inputValue()).toBe('copia@example.com');
    expect(await again.getByTestId('mail-forward-keep').isChecked()).toBe(false);
    await again.getByRole('button', { name: 'Cancelar' }).click();
    await again.waitFor({ state: 'detached' });
  });

  it('changes a quota within the plan and sees usage against the new quota', async () => {
    await row(page, 'ventas@demo.test').getByTestId('mail-quota-action').click();
    const quota = dialog(page, 'mail-quota-modal');
    await quota.getByTestId('mail-quota-form').waitFor();
    expect(await quota.getByTestId('mail-quota-input').inputValue()).toBe('1024 MiB');
    await quota.getByTestId('mail-quota-input').fill('999999');
    await quota.getByTestId('mail-quota-submit').click();
    await page.waitForFunction(() =>
      (document.querySelector('[data-testid="mail-quota-modal"] [role="dialog"]')?.textContent ?? '').includes(
        'El buzón más grande que permite tu plan es de 10240 MB',
      ),
    );
    await quota.getByTestId('mail-quota-input').fill('500');
    expect(await seriousViolations(page)).toEqual([]);
    await quota.getByTestId('mail-quota-submit').click();
    await waitToast(page, 'Cuota cambiada');
    await quota.waitFor({ state: 'detached' });
    await page.waitForFunction(
      ([selector]) =>
        (document.querySelector(selector as string)?.textContent ?? '').includes('0 B de 500 MB (0,00 %)'),
      [`${ROWS}[data-name="ventas@demo.test"]`] as const,
    );
    expect(await rowText(page, 'ventas@demo.test')).toBe('ventas@demo.test | Cuenta | 0 B de 500 MB (0,00 %)');
  });

  it('fits a phone: the badges in the row and both dialogs with every field inside the screen', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.reload();
      // on a phone the list's rows are stacked cards, not table rows
      const card = page.getByTestId('mail-list').locator('[data-name="soporte@demo.test"]');
      const badge = await insideViewport(card.getByTestId('mail-autoreply-badge'));
      expect(badge.visible && badge.left >= 0 && badge.right <= PHONE.width).toBe(true);
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await card.getByTestId('mail-rules').click();
      const rules = dialog(page, 'mail-rules-modal');
      await rules.getByTestId('mail-rules-form').waitFor();
      for (const field of ['mail-autoreply-subject', 'mail-autoreply-start', 'mail-autoreply-end', 'mail-forward']) {
        const place = await insideViewport(rules.getByTestId(field));
        expect({ field, ...place, fits: place.left >= 0 && place.right <= PHONE.width }).toMatchObject({
          field,
          visible: true,
          fits: true,
        });
      }
      await rules.getByRole('button', { name: 'Cancelar' }).click();
      await rules.waitFor({ state: 'detached' });
      await card.getByTestId('mail-quota-action').click();
      const quota = dialog(page, 'mail-quota-modal');
      const input = await insideViewport(quota.getByTestId('mail-quota-input'));
      expect(input.visible && input.left >= 0 && input.right <= PHONE.width).toBe(true);
      await quota.getByRole('button', { name: 'Cancelar' }).click();
      await quota.waitFor({ state: 'detached' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
