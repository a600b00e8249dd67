import type { PermissionListData } from '@panel247/contract/permissions';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable, newContext } from '../support/browser';
import { type Credentials, loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import type { PanelServer } from '../support/server';
import { pageSuite } from '../support/suite';
import { apiFromPage, dialog, waitToast } from '../support/ui';

const USERS = '[data-testid="users-list"] tbody tr[data-name]';
const WEBMASTER: Credentials = { domain: 'demo.test', user: 'webmaster', password: 'the webmaster’s own passphrase' };

/** The invitation link of the newest unsent mail to `to`, as the outbox keeps it. */
async function invitationLink(server: PanelServer, to: string): Promise<string> {
  const outbox = (await server.cli(['outbox', 'list', '--unsent'])) as { to: string; kind: string; body: string }[];
  const mail = outbox.find((message) => message.to === to && message.kind === 'user_invitation');
  const link = mail && /https?:\/\/\S+\/invitation\/#[A-Za-z0-9_-]{43}/.exec(mail.body)?.[0];
  if (!link) throw new Error(`no invitation to ${to} in the outbox`);
  return link;
}

/** Picks a level of one key on one resource's card (the segmented control's radio by its label). */
async function chooseLevel(page: Page, resource: number, key: string, label: string): Promise<void> {
  await page.getByTestId(`level-${resource}-${key}`).getByText(label, { exact: true }).click();
}

describe.skipIf(!chromiumAvailable())('a reseller manages its own users', () => {
  const suite = pageSuite({ captcha: 'none' }, (page, server) => loginNoCaptcha(page, server.url));
  let page: Page;
  let server: PanelServer;
  let demo: number;
  let webmasterId: number;

  beforeAll(async () => {
    ({ page, server } = suite);
    const list = await apiFromPage<{ data: PermissionListData }>(page, 'permission/list/');
    demo = list.data.permissions.find((entry) => entry.reference === 'demo.test')?.id as number;
  });

  async function saveLevels(levels: Record<string, string>): Promise<void> {
    for (const [key, label] of Object.entries(levels)) await chooseLevel(page, demo, key, label);
    await page.getByTestId(`save-${demo}`).click();
    await waitToast(page, 'Cambios guardados');
  }

  it('invites a user from the Users page of the management menu', async () => {
    await page.getByTestId('side-menu').getByRole('link', { name: 'Usuarios' }).click();
    await page.getByTestId('users-view').waitFor();
    await page.locator(`${USERS}[data-name="admin"]`).waitFor();
    await page.getByTestId('user-create').click();
    const create = dialog(page, 'user-create-modal');
    await create.getByTestId('user-username-input').fill(WEBMASTER.user);
    await create.getByTestId('user-email-input').fill('webmaster@example.test');
    await create.getByTestId('user-create-submit').click();
    await waitToast(page, 'Invitación enviada');
    await page.locator(`${USERS}[data-name="webmaster"]`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('gives the new user the hosting and FTP of one resource', async () => {
    await page.locator(`${USERS}[data-name="webmaster"]`).getByRole('link', { name: 'webmaster' }).click();
    await page.getByTestId('user-view').waitFor();
    webmasterId = Number(new URL(page.url()).pathname.split('/').filter(Boolean).pop());
    await page.locator(`[data-testid="user-resource"][data-resource="${demo}"]`).waitFor();
    await saveLevels({ service: 'Consultar y modificar', service_ftp: 'Consultar y modificar' });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('the user sets a password from the mailed link, logs in and sees only that resource', async () => {
    const link = await invitationLink(server, 'webmaster@example.test');
    const context = await newContext(suite.browser);
    const theirs = await context.newPage();
    await theirs.goto(link);
    await theirs.getByTestId('invitation-form').waitFor();
    expect(await theirs.getByTestId('invitation-for').textContent()).toContain('webmaster');
    await theirs.getByTestId('invitation-password').fill(WEBMASTER.password);
    await theirs.getByTestId('invitation-repeat').fill(WEBMASTER.password);
    await theirs.getByTestId('invitation-submit').click();
    await theirs.getByTestId('invitation-done').waitFor();
    // the link works once
    await theirs.goto('about:blank');
    await theirs.goto(link);
    await theirs.getByTestId('invitation-invalid').waitFor();

    await loginNoCaptcha(theirs, server.url, WEBMASTER);
    const visible = await apiFromPage<{ data: PermissionListData }>(theirs, 'permission/list/');
    expect(visible.data.permissions.map((entry) => entry.reference)).toEqual(['demo.test']);
    expect(visible.data.manageUsers).toBe(false);
    // no Users entry for them, and the page is not found
    expect(await theirs.getByTestId('side-menu').getByRole('link', { name: 'Usuarios' }).count()).toBe(0);
    await theirs.goto(`${server.url}/admin/users/`);
    await theirs.getByTestId('not-found').waitFor();

    // the reseller lowers FTP to read while the user's create dialog is open: it closes
    await theirs.goto(`${server.url}/admin/${demo}/service/ftp/`);
    await theirs.getByTestId('ftp-create').click();
    await dialog(theirs, 'ftp-create-modal').waitFor();
    await saveLevels({ service_ftp: 'Solo consultar' });
    await waitToast(theirs, 'No tienes permiso para esta acción');
    await dialog(theirs, 'ftp-create-modal').waitFor({ state: 'detached' });
    expect(await theirs.getByTestId('ftp-create').count()).toBe(0);
    await context.close();
  });

  it('disables the user: their open page loses its session at once', async () => {
    const context = await newContext(suite.browser);
    const theirs = await context.newPage();
    await loginNoCaptcha(theirs, server.url, WEBMASTER);
    await page.goto(`${server.url}/admin/users/${webmasterId}/`);
    await page.getByTestId('user-actions').click();
    await page.getByTestId('user-disable').click();
    await dialog(page, 'user-confirm-modal').getByTestId('user-confirm-modal-confirm').click();
    await waitToast(page, 'Usuario desactivado: sus sesiones y tokens han terminado');
    // the session-loss modal opens over their page
    await theirs.getByRole('dialog', { name: 'Tu sesión ha finalizado' }).waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('the Users page at a phone width: no sideways scroll, the rows inside the screen', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/admin/users/`);
    // a phone lists the users stacked, not in a table
    const row = page.locator('[data-testid="users-list"] [data-name="webmaster"]');
    await row.waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect((await insideViewport(row)).visible).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
