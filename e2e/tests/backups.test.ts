import type { FilesListData, FilesReadData } from '@panel247/contract/files';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { closeWithDoubleEscape, tabStops } from '../support/keyboard';
import { type Credentials, loginNoCaptcha, VIEWER } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSession } from '../support/session';
import { pageSuite } from '../support/suite';
import { apiFromPage, dialog, waitToast } from '../support/ui';
import { titleOnceSet } from '../support/ui.ts';

const ROWS = '[data-testid="backups-list"] [data-name]';
const FOLDER = 'e2e-backup';
const FILE = 'keep.txt';
const CONTENT = 'worth keeping\n';
/** A backup or a restore runs restic: on a busy machine it may take a while, never a fixed time. */
const JOB_WAIT = { timeout: 100_000 };
const JOB_TEST_MS = 120_000;

/** Logs in and opens demo.test's backups through the side menu (no id guessed). */
async function openBackups(page: Page, baseUrl: string, credentials?: Credentials): Promise<void> {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-backups').click();
  await page.waitForURL(/\/admin\/\d+\/service\/backups\/$/);
  await page.getByTestId('backups-list').waitFor();
}

describe.skipIf(!chromiumAvailable())('backups', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => openBackups(page, server.url));
  let page: Page;
  let serviceId: string;

  beforeAll(() => {
    page = suite.page;
    serviceId = /\/admin\/(\d+)\//.exec(page.url())?.[1] ?? '';
  });

  /** The names in a folder of the service's home, through the files API. */
  async function namesIn(path: string): Promise<string[]> {
    const answer = await apiFromPage<{ data: FilesListData }>(
      page,
      `service/${serviceId}/files/list/?path=${encodeURIComponent(path)}`,
    );
    return answer.data?.entries.map((entry) => entry.name) ?? [];
  }

  it('opens from the side menu with its title, trail, usage and no backups yet', async () => {
    expect(await titleOnceSet(page, 'Copias de seguridad · demo.test / Panel247 Demo Hosting')).toBe(
      'Copias de seguridad · demo.test / Panel247 Demo Hosting',
    );
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toBe(
      'Escritorio/demo.test/Hosting/Copias de seguridad',
    );
    await page.getByText('Aún no hay copias de seguridad').waitFor();
    expect(await page.getByTestId('backups-usage').textContent()).toMatch(/^0 B (de .+ usados|usados)$/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it(
    'backs up now: the page follows the job step by step, then lists the snapshot with what it holds',
    async () => {
      await apiFromPage(page, `service/${serviceId}/files/mkdir/`, `path=&name=${FOLDER}`);
      await page.evaluate(
        ([url, body]) =>
          fetch(url as string, {
            method: 'PUT',
            headers: { 'x-dd-request': '1', 'content-type': 'application/octet-stream' },
            body: body as string,
          }),
        [
          `/p247/service/${serviceId}/files/upload/?path=${FOLDER}&name=${FILE}&offset=0&size=${CONTENT.length}`,
          CONTENT,
        ] as const,
      );
      expect(await namesIn(FOLDER)).toEqual([FILE]);

      // the first answer about the job is held at a step, so the page is seen following it
      const JOB_URL = '**/p247/service/*/backups/job/*/';
      let held = false;
      await page.route(JOB_URL, async (route) => {
        const answer = await route.fetch();
        const body = await answer.json();
        if (!held) {
          held = true;
          body.data.job = { ...body.data.job, status: 'running', step: 'saving' };
        }
        await route.fulfill({ response: answer, json: body });
      });
      try {
        await page.getByTestId('backups-run').click();
        await waitToast(page, 'Copia de seguridad en marcha');
        await page.getByText('Copia de seguridad: guardando la copia').waitFor();
        expect(await page.getByTestId('backups-run').getAttribute('aria-disabled')).toBe('true');
      } finally {
        await page.unroute(JOB_URL);
      }
      await page.getByText('Copia de seguridad terminada', { exact: true }).first().waitFor(JOB_WAIT);
      await page.locator(ROWS).first().waitFor();
      expect(await page.locator(ROWS).count()).toBe(1);
      expect(await page.getByTestId('backups-run').getAttribute('aria-disabled')).toBe('false');
      expect(await page.locator(ROWS).first().locator('[data-hold="files"]').textContent()).toBe('Archivos');
      expect(await page.getByTestId('backups-usage').textContent()).not.toMatch(/^0 B/);
    },
    JOB_TEST_MS,
  );

  it(
    'restores a deleted folder over the current files once confirmed, and the file is back',
    async () => {
      await apiFromPage(page, `service/${serviceId}/files/delete/`, `path=${FOLDER}`);
      expect(await namesIn('')).not.toContain(FOLDER);

      await page.locator(ROWS).first().getByTestId('backups-restore').click();
      const restore = dialog(page, 'backups-restore-modal');
      await restore.waitFor();
      expect(await restore.getByTestId('backups-what-files').isChecked()).toBe(true);
      await restore.getByTestId('backups-restore-path').fill(FOLDER);
      expect(await restore.getByTestId('backups-placement-over').isChecked()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      // over the current files, nothing goes without the confirmation
      await restore.getByTestId('backups-restore-submit').click();
      await restore.getByText('Confirma que quieres sustituir lo que hay ahora').waitFor();
      await restore.getByTestId('backups-restore-confirm').check();
      await restore.getByTestId('backups-restore-submit').click();
      await restore.waitFor({ state: 'detached' });

      await page.getByText('Restauración terminada', { exact: true }).first().waitFor(JOB_WAIT);
      expect(await namesIn(FOLDER)).toEqual([FILE]);
      const read = await apiFromPage<{ data: FilesReadData }>(
        page,
        `service/${serviceId}/files/read/?path=${encodeURIComponent(`${FOLDER}/${FILE}`)}`,
      );
      expect(read.data.content).toBe(CONTENT);
      await apiFromPage(page, `service/${serviceId}/files/delete/`, `path=${FOLDER}`);
    },
    JOB_TEST_MS,
  );

  it(
    'says why a restore failed: a path the snapshot does not hold',
    async () => {
      await page.locator(ROWS).first().getByTestId('backups-restore').click();
      const restore = dialog(page, 'backups-restore-modal');
      await restore.waitFor();
      await restore.getByTestId('backups-restore-path').fill('nothing/here');
      await restore.getByTestId('backups-restore-confirm').check();
      await restore.getByTestId('backups-restore-submit').click();
      await restore.waitFor({ state: 'detached' });
      await page.getByText('La copia de seguridad no contiene eso', { exact: true }).first().waitFor(JOB_WAIT);
      // the page is free again for the next job
      await page.waitForFunction(
        () => document.querySelector('[data-testid="backups-run"]')?.getAttribute('aria-disabled') === 'false',
      );
    },
    JOB_TEST_MS,
  );

  it('is keyboard reachable: the restore dialog opens with Enter and gives the focus back on a double Escape', async () => {
    await page.getByTestId('backups-run').focus();
    expect(await tabStops(page, 1)).toEqual([expect.stringMatching(/^button:Restaurar la copia del .+…$/)]);
    await page.keyboard.press('Enter');
    const restore = dialog(page, 'backups-restore-modal');
    await restore.waitFor();
    await page.waitForFunction(() =>
      Boolean(document.activeElement?.closest('[data-testid="backups-restore-modal"] [role="dialog"]')),
    );
    await closeWithDoubleEscape(page, restore);
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'backups-restore');
  });

  it('on a phone, a snapshot shows its date and its restore button inside the screen', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.reload();
      await page.locator(ROWS).first().waitFor();
      expect(await page.getByTestId('backups-list').getAttribute('data-layout')).toBe('stacked');
      const snapshot = page.locator(ROWS).first();
      for (const locator of [snapshot.getByTestId('backups-date'), snapshot.getByTestId('backups-restore')]) {
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

  describe('read-only user', () => {
    const viewer = pageSession(
      () => suite.browser,
      (viewerPage) => openBackups(viewerPage, suite.server.url, VIEWER),
    );

    it('sees the snapshots, but no backup now and no restore', async () => {
      await viewer.page.locator(ROWS).first().waitFor();
      expect(await viewer.page.getByTestId('backups-run').count()).toBe(0);
      expect(await viewer.page.getByTestId('backups-restore').count()).toBe(0);
      expect(await seriousViolations(viewer.page)).toEqual([]);
    });
  });
});
