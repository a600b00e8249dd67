import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UPLOAD_CHUNK_BYTES } from '@panel247/contract/files';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProFtpd, startProFtpd } from '../../scripts/daemons/proftpd';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { tabStops } from '../support/keyboard';
import { type Credentials, loginNoCaptcha, VIEWER } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { pageSession } from '../support/session';
import { pageSuite } from '../support/suite';
import { apiFromPage, dialog, fieldError, holdCalls, waitNames, waitToast } from '../support/ui';
import { titleOnceSet } from '../support/ui.ts';

const ROWS = '[data-testid="files-list"] [data-name]';
const FOLDER = 'e2e-files';

/** Logs in and opens demo.test's files through the side menu (no id guessed). */
async function openFiles(page: Page, baseUrl: string, credentials?: Credentials): Promise<void> {
  await loginNoCaptcha(page, baseUrl, credentials);
  await page.getByTestId('side-menu').getByTestId('menu-item-files').click();
  await page.waitForURL(/\/admin\/\d+\/service\/files\/$/);
  await page.getByTestId('files-list').waitFor();
}

function row(page: Page, name: string) {
  return page.locator(`${ROWS}[data-name="${name}"]`);
}

/** The names listed, in order. */
async function names(page: Page): Promise<string[]> {
  return page.locator(ROWS).evaluateAll((rows) => rows.map((element) => element.getAttribute('data-name') ?? ''));
}

/** The folder trail above the list, as its text with `/` between the steps. */
async function trail(page: Page): Promise<string> {
  const steps = await page.getByTestId('files-path').locator('a, [aria-current="page"]').allTextContents();
  return steps.join('/');
}

/** The editor's text, line by line (CodeMirror draws each line as its own element). */
async function editorText(content: Locator): Promise<string> {
  return content.evaluate((element) =>
    Array.from(element.querySelectorAll('.cm-line'))
      .map((line) => line.textContent ?? '')
      .join('\n'),
  );
}

/** Some bytes that are not all alike, so a chunk in the wrong place would show. */
function patterned(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 10)) & 0xff;
  return bytes;
}

describe.skipIf(!chromiumAvailable())('file manager', () => {
  // no WebFTP of the provider's: the FTP list's WebFTP opens the panel's own file manager
  const suite = pageSuite({ captcha: 'none', env: { PANEL_WEBFTP_KEY: '' } }, (page, server) =>
    openFiles(page, server.url),
  );
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let filesUrl: string;

  beforeAll(() => {
    ({ server, browser, page } = suite);
    filesUrl = page.url();
  });

  async function openFolder(path: string): Promise<void> {
    await page.goto(`${filesUrl}${path ? `?path=${encodeURIComponent(path)}` : ''}`);
    await page.getByTestId('files-list').waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="files-list"]')?.getAttribute('aria-busy') === 'false',
    );
  }

  it('opens from the side menu with the service home, its title and trail', async () => {
    expect(await titleOnceSet(page, 'Archivos · demo.test / Panel247 Demo Hosting')).toBe(
      'Archivos · demo.test / Panel247 Demo Hosting',
    );
    expect(await page.getByRole('navigation', { name: 'Ruta de navegación' }).textContent()).toBe(
      'Escritorio/demo.test/Hosting/Archivos',
    );
    expect(await trail(page)).toBe('Inicio');
    expect(await page.getByTestId('files-new-folder').isVisible()).toBe(true);
    expect(await page.getByTestId('files-upload').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a skeleton while a slow folder loads, and says so when it cannot be listed', async () => {
    const release = await holdCalls(page, '**/p247/service/*/files/list/**', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        headers: { 'x-dd': '1' },
        body: JSON.stringify({
          system: {
            valid: false,
            errors: ['La carpeta no existe'],
            inputs: [],
            info: [],
            debug: [],
            job: null,
            statusCode: 404,
            mlcVer: '',
          },
          data: null,
        }),
      }),
    );
    try {
      await page.goto(`${filesUrl}?path=gone`);
      await page.getByTestId('files-skeleton').waitFor();
      release();
      await page.getByText('No se pudo cargar la carpeta.').waitFor();
      await waitToast(page, 'La carpeta no existe');
      expect(await page.getByTestId('files-skeleton').count()).toBe(0);
      // the trail still leads back up
      expect(await trail(page)).toBe('Inicio/gone');
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
  });

  it('creates a folder (a name with a slash is refused first) and opens it', async () => {
    await openFolder('');
    await page.getByTestId('files-new-folder').click();
    const naming = dialog(page, 'files-prompt-modal');
    await naming.waitFor();
    const input = naming.getByTestId('files-prompt-input');
    await input.fill('a/b');
    await naming.getByTestId('files-prompt-submit').click();
    expect(await fieldError(input)).toMatch(/^Escribe un nombre sin \//);
    await input.fill(FOLDER);
    await naming.getByTestId('files-prompt-submit').click();
    await naming.waitFor({ state: 'detached' });
    await row(page, FOLDER).waitFor();
    expect(await row(page, FOLDER).getAttribute('data-type')).toBe('folder');

    await row(page, FOLDER).getByTestId('files-open-folder').click();
    await page.waitForURL((url) => url.searchParams.get('path') === FOLDER);
    await page.getByText('Esta carpeta está vacía.').waitFor();
    await expect.poll(() => trail(page)).toBe(`Inicio/${FOLDER}`);
    // the browser's back button goes up again
    await page.goBack();
    await row(page, FOLDER).waitFor();
    await expect.poll(() => trail(page)).toBe('Inicio');
  });

  it('uploads by the file input, a file of several chunks arriving byte for byte', async () => {
    await openFolder(FOLDER);
    const big = patterned(UPLOAD_CHUNK_BYTES + 300_001);
    // the upload button's own (hidden) file input
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') },
      { name: 'big.bin', mimeType: 'application/octet-stream', buffer: big },
      { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
    ]);
    const uploads = page.getByTestId('files-uploads');
    await uploads.waitFor();
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-testid="files-upload-item"]'))
          .map((item) => item.getAttribute('data-state'))
          .join() === 'done,done,done',
      undefined,
      { timeout: 45_000 },
    );
    expect(await uploads.getByRole('progressbar').count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    // the list comes back with them, folders first then files by name (the server's order)
    await waitNames(page, ROWS, ['big.bin', 'empty.txt', 'hello.txt']);
    expect(await row(page, 'big.bin').textContent()).toContain('8,29 MB');

    // downloaded back through the row's button, the big file is the same bytes
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row(page, 'big.bin').getByTestId('files-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('big.bin');
    const back = await readFile(await download.path());
    expect(back.length).toBe(big.length);
    expect(back.equals(big)).toBe(true);

    await page.getByTestId('files-uploads-clear').click();
    await uploads.waitFor({ state: 'detached' });
  });

  it('renames a file', async () => {
    await openFolder(FOLDER);
    await row(page, 'hello.txt').getByTestId('files-rename').click();
    const naming = dialog(page, 'files-prompt-modal');
    await naming.waitFor();
    expect(await naming.getByTestId('files-prompt-input').inputValue()).toBe('hello.txt');
    await naming.getByTestId('files-prompt-input').fill('greeting.txt');
    await naming.getByTestId('files-prompt-submit').click();
    await naming.waitFor({ state: 'detached' });
    await waitNames(page, ROWS, ['big.bin', 'empty.txt', 'greeting.txt']);
  });

  it('edits a text file: a close with changes asks first, a save writes it', async () => {
    await openFolder(FOLDER);
    expect(await row(page, 'big.bin').getByTestId('files-edit').count()).toBe(0);
    await row(page, 'greeting.txt').getByTestId('files-edit').click();
    const editor = dialog(page, 'files-editor-modal');
    const text = editor.getByTestId('files-editor-text');
    await text.waitFor();
    expect(await editorText(text)).toBe('hello\n');
    expect(await text.getAttribute('aria-label')).toBe('Contenido de greeting.txt');
    expect(await text.evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(/mono/i);
    // the editor has the focus: the text is replaced by typing
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'files-editor-text');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('hello, world');
    expect(await editorText(text)).toBe('hello, world');

    // cancel with changes: the question, and "cancel" keeps the text
    await editor.getByRole('button', { name: 'Cancelar' }).click();
    const discard = dialog(page, 'files-discard-modal');
    await discard.waitFor();
    await discard.getByRole('button', { name: 'Cancelar' }).click();
    await discard.waitFor({ state: 'detached' });
    expect(await editorText(text)).toBe('hello, world');
    expect(await seriousViolations(page)).toEqual([]);

    await editor.getByTestId('files-editor-save').click();
    await editor.waitFor({ state: 'detached' });
    await row(page, 'greeting.txt').getByTestId('files-edit').click();
    await text.waitFor();
    expect(await editorText(text)).toBe('hello, world');
    // no change: it closes without asking
    await editor.getByRole('button', { name: 'Cancelar' }).click();
    await editor.waitFor({ state: 'detached' });
  });

  it("changes permission bits, copies a file and moves another, from the row's menu", async () => {
    await openFolder(FOLDER);
    const prompt = dialog(page, 'files-prompt-modal');
    const input = prompt.getByTestId('files-prompt-input');
    const fromMenu = async (name: string, item: string) => {
      await row(page, name).getByTestId('files-more').click();
      await page.getByTestId(item).click();
      await prompt.waitFor();
    };

    await fromMenu('greeting.txt', 'files-mode');
    expect(await input.inputValue()).toBe('644');
    await input.fill('999');
    await prompt.getByTestId('files-prompt-submit').click();
    expect(await fieldError(input)).toMatch(/^Escribe tres cifras del 0 al 7/);
    await input.fill('600');
    await prompt.getByTestId('files-prompt-submit').click();
    await prompt.waitFor({ state: 'detached' });
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.includes('0600') === true,
      `${ROWS}[data-name="greeting.txt"]`,
    );

    await fromMenu('greeting.txt', 'files-copy');
    expect(await input.inputValue()).toBe(`/${FOLDER}`);
    await input.fill('/');
    await prompt.getByTestId('files-prompt-submit').click();
    await prompt.waitFor({ state: 'detached' });
    await fromMenu('empty.txt', 'files-move');
    await input.fill('/');
    await prompt.getByTestId('files-prompt-submit').click();
    await prompt.waitFor({ state: 'detached' });
    await waitNames(page, ROWS, ['big.bin', 'greeting.txt']);

    await openFolder('');
    await row(page, 'greeting.txt').waitFor();
    await row(page, 'empty.txt').waitFor();
    const serviceId = /\/admin\/(\d+)\//.exec(filesUrl)?.[1] ?? '';
    for (const name of ['greeting.txt', 'empty.txt']) {
      await apiFromPage(page, `service/${serviceId}/files/delete/`, `path=${name}`);
    }
  });

  it('on a phone, each row shows its name and its buttons inside the screen', async () => {
    await page.setViewportSize(PHONE);
    try {
      await openFolder(FOLDER);
      const list = page.getByTestId('files-list');
      expect(await list.getAttribute('data-layout')).toBe('stacked');
      const item = row(page, 'greeting.txt');
      for (const locator of [item.getByText('greeting.txt', { exact: true }), item.getByTestId('files-delete')]) {
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

  it('uploads files dropped on the list, showing where they go while they are dragged over', async () => {
    await openFolder(FOLDER);
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped\n'], 'dropped.txt', { type: 'text/plain' }));
      return transfer;
    });
    const zone = page.getByTestId('files-drop-zone');
    await zone.dispatchEvent('dragenter', { dataTransfer });
    const overlay = page.getByTestId('files-drop-overlay');
    await overlay.waitFor();
    expect(await overlay.textContent()).toBe(`Suelta los archivos para subirlos a ${FOLDER}`);
    await zone.dispatchEvent('drop', { dataTransfer });
    await overlay.waitFor({ state: 'detached' });
    await waitNames(page, ROWS, ['big.bin', 'dropped.txt', 'greeting.txt']);
  });

  it("is keyboard usable: each row's buttons in turn, and the trail up", async () => {
    await openFolder(FOLDER);
    await page.getByTestId('files-filter').focus();
    expect(await tabStops(page, 6)).toEqual([
      'a:Descargar big.bin',
      'button:Cambiar el nombre de big.bin',
      'button:Eliminar big.bin',
      'button:Más acciones de big.bin',
      'a:Descargar dropped.txt',
      'button:Editar dropped.txt',
    ]);
    await page.getByTestId('files-path').getByRole('link', { name: 'Inicio' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.searchParams.has('path'));
    await row(page, FOLDER).waitFor();
  });

  it('opens as the WebFTP of an FTP account, rooted at its folder, in a new tab', async () => {
    await page.getByTestId('side-menu').getByTestId('menu-item-ftp').click();
    const webftp = page.locator('[data-testid="ftp-list"] [data-name="blog@demo.test"]').getByTestId('ftp-webftp');
    await webftp.waitFor();
    const [tab] = await Promise.all([suite.context.waitForEvent('page'), webftp.click()]);
    await tab.waitForURL((url) => url.pathname.endsWith('/service/files/') && url.searchParams.has('ftp'));
    await tab.getByTestId('files-list').waitFor();
    await tab.waitForFunction(() => document.title.startsWith('Archivos · blog@demo.test'));
    expect(await tab.getByTestId('files-path').textContent()).toBe('blog@demo.test');
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
  });

  it('downloads a folder as a .zip, which extracts back into a folder', async () => {
    await openFolder('');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row(page, FOLDER).getByTestId('files-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${FOLDER}.zip`);
    const zip = await readFile(await download.path());
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('greeting.txt'))).toBe(true);

    // sent back as an archive, it extracts into a folder named after it
    await page
      .locator('input[type="file"]')
      .setInputFiles([{ name: 'bundle.zip', mimeType: 'application/zip', buffer: zip }]);
    await row(page, 'bundle.zip').waitFor();
    // held a moment, the extract shows what it is doing and lets no second one start
    const EXTRACT_URL = '**/p247/service/*/files/extract/';
    await page.route(EXTRACT_URL, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    try {
      await row(page, 'bundle.zip').getByTestId('files-more').click();
      await page.getByTestId('files-extract').click();
      await page.getByTestId('files-extracting').waitFor();
      expect(await page.getByTestId('files-extracting').textContent()).toBe('Descomprimiendo bundle.zip…');
      expect(await page.getByTestId('files-list').getAttribute('aria-busy')).toBe('true');
      await row(page, 'bundle.zip').getByTestId('files-more').click();
      expect(await page.getByTestId('files-extract').isDisabled()).toBe(true);
      await page.keyboard.press('Escape');
      await row(page, 'bundle').waitFor();
      await page.getByTestId('files-extracting').waitFor({ state: 'detached' });
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
    // the .zip of a folder holds the folder itself
    await openFolder(`bundle/${FOLDER}`);
    expect(await names(page)).toEqual(['big.bin', 'dropped.txt', 'greeting.txt']);
    const serviceId = /\/admin\/(\d+)\//.exec(filesUrl)?.[1] ?? '';
    for (const name of ['bundle', 'bundle.zip']) {
      await apiFromPage(page, `service/${serviceId}/files/delete/`, `path=${name}`);
    }
  });

  it('lists a FIFO as a special file, offers neither download nor editor for it, and deletes it', async () => {
    // A FIFO a customer made (over SSH or PHP): opening it would wait for a writer for ever.
    const fifo = path.join(server.dataDir, 'www', 'demo.test', FOLDER, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await openFolder(FOLDER);
    const special = row(page, 'pipe');
    await special.waitFor();
    expect(await special.getAttribute('data-type')).toBe('special');
    expect(await special.getByRole('img', { name: 'Archivo especial (FIFO, socket o dispositivo)' }).count()).toBe(1);
    expect(await special.getByTestId('files-download').count()).toBe(0);
    expect(await special.getByTestId('files-edit').count()).toBe(0);
    // the rest of the folder keeps answering
    await openFolder(FOLDER);
    await special.getByTestId('files-delete').click();
    const confirm = dialog(page, 'files-delete-modal');
    await confirm.getByTestId('files-delete-modal-confirm').click();
    await special.waitFor({ state: 'detached' });
    expect(existsSync(fifo)).toBe(false);
  });

  it('deletes a folder with what it holds, after a confirmation that says so', async () => {
    await openFolder('');
    await row(page, FOLDER).getByTestId('files-delete').click();
    const confirm = dialog(page, 'files-delete-modal');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`¿Eliminar la carpeta ${FOLDER} y todo lo que contiene?`);
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByTestId('files-delete-modal-confirm').click();
    await confirm.waitFor({ state: 'detached' });
    await row(page, FOLDER).waitFor({ state: 'detached' });
  });

  describe('read-only user', () => {
    const viewer = pageSession(
      () => browser,
      (viewerPage) => openFiles(viewerPage, server.url, VIEWER),
    );

    it('browses, downloads and reads a text file, but is offered no change', async () => {
      // a text file for the viewer to read, put there by the admin
      const serviceId = /\/admin\/(\d+)\//.exec(filesUrl)?.[1] ?? '';
      await page.evaluate(
        (url) =>
          fetch(url, {
            method: 'PUT',
            headers: { 'x-dd-request': '1', 'content-type': 'application/octet-stream' },
            body: '<p>read me</p>\n',
          }),
        `/p247/service/${serviceId}/files/upload/?path=&name=readme.html&offset=0&size=15`,
      );
      try {
        await viewer.page.reload();
        await viewer.page.locator(`${ROWS}[data-name="readme.html"]`).waitFor();
        await viewer.page.getByTestId('files-read-only').waitFor();
        expect(await names(viewer.page)).toContain('blog');
        for (const id of ['files-new-folder', 'files-upload', 'files-rename', 'files-delete', 'files-edit']) {
          expect(await viewer.page.getByTestId(id).count(), id).toBe(0);
        }
        expect(await viewer.page.getByTestId('files-drop-zone').count()).toBe(0);
        expect(await seriousViolations(viewer.page)).toEqual([]);

        const readme = viewer.page.locator(`${ROWS}[data-name="readme.html"]`);
        expect(await readme.getByTestId('files-download').count()).toBe(1);
        await readme.getByTestId('files-view-text').click();
        const editor = dialog(viewer.page, 'files-editor-modal');
        const text = editor.getByTestId('files-editor-text');
        await text.waitFor();
        expect(await editorText(text)).toBe('<p>read me</p>\n');
        expect(await text.getAttribute('contenteditable')).toBe('false');
        // highlighted as HTML: the tag is drawn apart from the text
        await editor.locator('.cm-line span').first().waitFor();
        expect(await editor.getByTestId('files-editor-save').count()).toBe(0);
        await editor.getByRole('button', { name: 'Cerrar', exact: true }).last().click();
        await editor.waitFor({ state: 'detached' });
      } finally {
        await apiFromPage(page, `service/${serviceId}/files/delete/`, 'path=readme.html');
      }
    });
  });
});

describe.skipIf(!chromiumAvailable())('file manager beside a real ProFTPD', () => {
  // ProFTPD reads the accounts from the panel's copy (SQLite) and serves the same homes; both the
  // folder and the copy exist before the panel starts (the hooks run in this order)
  const work = path.join(tmpdir(), `p247-e2e-ftp-${process.pid}`);
  const usersFile = path.join(work, 'ftp-users.sqlite');
  const hostingRoot = path.join(work, 'www');
  beforeAll(() => {
    mkdirSync(hostingRoot, { recursive: true, mode: 0o755 });
    chmodSync(work, 0o755);
  });
  const suite = pageSuite(
    {
      captcha: 'none',
      env: { PANEL_WEBFTP_KEY: '', PANEL_FTP_USERS_FILE: usersFile, PANEL_HOSTING_ROOT: hostingRoot },
    },
    (page, server) => openFiles(page, server.url),
  );
  let ftpd: ProFtpd;
  let page: Page;
  let filesUrl: string;
  let serviceId: string;
  const login = 'e2e@demo.test';
  const password = 'e2e ftp password 1';

  beforeAll(async () => {
    page = suite.page;
    filesUrl = page.url();
    serviceId = /\/admin\/(\d+)\//.exec(filesUrl)?.[1] as string;
    ftpd = await startProFtpd({ kind: 'sqlite', file: usersFile });
    const created = await apiFromPage<{ system: { errors: string[] } }>(
      page,
      `service/${serviceId}/ftp/create/`,
      new URLSearchParams({ ftpUser: 'e2e', password, folder: '' }).toString(),
    );
    expect(created.system.errors).toEqual([]);
  });
  afterAll(async () => {
    await ftpd?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function showFolder(folder: string): Promise<void> {
    await page.goto(`${filesUrl}${folder ? `?path=${encodeURIComponent(folder)}` : ''}`);
    await page.getByTestId('files-list').waitFor();
  }

  it('a file uploaded through the browser is listed and read over FTP', async () => {
    await showFolder('');
    await page
      .locator('input[type="file"]')
      .setInputFiles([
        { name: 'from-browser.txt', mimeType: 'text/plain', buffer: Buffer.from('sent from Chromium\n') },
      ]);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="files-upload-item"]')?.getAttribute('data-state') === 'done',
      undefined,
      { timeout: 45_000 },
    );
    await row(page, 'from-browser.txt').waitFor();
    const listing = await ftpd.curl(login, password, ['-l']);
    expect(listing.code).toBe(0);
    expect(listing.stdout.split(/\r?\n/)).toContain('from-browser.txt');
    expect((await ftpd.curl(login, password, [], '/from-browser.txt')).stdout).toBe('sent from Chromium\n');
  });

  it('refuses a path out of the home and a link planted over FTP, in the page and in the API', async () => {
    // the plant: ProFTPD's SITE SYMLINK wants the target inside its chroot, so the path of a folder
    // outside is made there first; read outside the chroot, the link leads to the real folder
    const outside = mkdtempSync(path.join(tmpdir(), 'p247-e2e-neighbour-'));
    writeFileSync(path.join(outside, 'secret.txt'), 'not yours');
    const decoy = path.join(work, 'decoy.txt');
    writeFileSync(decoy, 'decoy');
    try {
      expect((await ftpd.curl(login, password, ['--ftp-create-dirs', '-T', decoy], `${outside}/secret.txt`)).code).toBe(
        0,
      );
      expect((await ftpd.curl(login, password, ['-Q', `SITE SYMLINK ${outside} leak`, '-l'])).code).toBe(0);

      // listed as a link: no folder to open, nothing to download
      await showFolder('');
      const leak = row(page, 'leak');
      await leak.waitFor();
      expect(await leak.getAttribute('data-type')).toBe('link');
      expect(await leak.getByTestId('files-open-folder').count()).toBe(0);
      expect(await leak.getByTestId('files-download').count()).toBe(0);

      // followed by its address, the page says why and leads back
      await showFolder('leak');
      await page.getByText('No se pudo cargar la carpeta.').waitFor();
      await waitToast(page, 'La ruta lleva fuera de la carpeta permitida');
      // an address going up falls back to the home; an absolute one is read inside it
      await showFolder('../..');
      await row(page, 'from-browser.txt').waitFor();
      expect(await trail(page)).toBe('Inicio');
      await showFolder('/etc');
      await page.getByText('No se pudo cargar la carpeta.').waitFor();
      expect(await trail(page)).toBe('Inicio/etc');
      type Answer = { system: { valid: boolean; errors: string[] } };
      const read = await apiFromPage<Answer>(page, `service/${serviceId}/files/read/?path=leak%2Fsecret.txt`);
      expect(read.system.errors).toEqual(['La ruta lleva fuera de la carpeta permitida']);
      const up = await apiFromPage<Answer>(page, `service/${serviceId}/files/list/?path=..%2F..`);
      expect(up.system.valid).toBe(false);

      // deleted from the page as a link: what it led to stays
      await showFolder('');
      await row(page, 'leak').getByTestId('files-delete').click();
      const confirm = dialog(page, 'files-delete-modal');
      await confirm.getByTestId('files-delete-modal-confirm').click();
      await row(page, 'leak').waitFor({ state: 'detached' });
      expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('not yours');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
