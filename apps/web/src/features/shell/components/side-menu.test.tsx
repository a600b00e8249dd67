import type { PermissionListData, PermissionSetData } from '@panel247/contract/permissions';
import { API } from '@panel247/contract/routes';
import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { itemEntries, SideMenu } from './side-menu';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

/** The permission list answers with the right to manage users as `manageUsers()` says at that moment. */
function serve(manageUsers: () => boolean | undefined) {
  return stubApi((call) => {
    if (call.path === API.permissionList) {
      const data: PermissionListData = { permissions: [], manageUsers: manageUsers() };
      return envelope(data);
    }
    return envelope(null, { status: 404 });
  });
}

function renderMenu() {
  return renderWithProviders(
    <MemoryRouter initialEntries={['/admin/users/']}>
      <SideMenu item={null} onNavigate={() => {}} />
    </MemoryRouter>,
  );
}

describe('the side menu’s users entry', () => {
  it('is there for a user who may manage users, in the management group, marked on its page', async () => {
    serve(() => true);
    renderMenu();
    const entry = await screen.findByTestId('menu-users');
    expect(entry).toHaveTextContent('Usuarios');
    expect(entry).toHaveAttribute('href', '/admin/users/');
    expect(entry).toHaveAttribute('aria-current', 'page');
    expect(entry.closest('nav')).toHaveAccessibleName('Gestión');
  });

  it('is not there without the right', async () => {
    const calls = serve(() => false);
    renderMenu();
    await screen.findByTestId('menu-activity');
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(screen.queryByTestId('menu-users')).toBeNull();
  });

  it('follows a permission change at once (the realtime event invalidates the list)', async () => {
    let allowed: boolean | undefined;
    serve(() => allowed);
    const { client } = renderMenu();
    await screen.findByTestId('menu-activity');
    expect(screen.queryByTestId('menu-users')).toBeNull();
    allowed = true;
    await client.invalidateQueries({ queryKey: ['permissions'] });
    expect(await screen.findByTestId('menu-users')).toBeInTheDocument();
    allowed = false;
    await client.invalidateQueries({ queryKey: ['permissions'] });
    await waitFor(() => expect(screen.queryByTestId('menu-users')).toBeNull());
  });
});

describe('the side menu’s entries of a hosting service', () => {
  const service = (permissions: Partial<PermissionSetData['permissions']>) =>
    ({
      id: 4,
      reference: 'demo.test',
      hasDomain: false,
      hasService: true,
      hasMail: false,
      service: { expireTS: 0, isRedirAndParking: false },
      permissions,
    }) as unknown as PermissionSetData;
  const t = (key: string) => key;

  it('shows the scheduled tasks right after the backups to whoever sees them', () => {
    const entries = itemEntries(service({ service: 'read', service_backups: 'read', service_cron: 'read' }), t);
    const ids = entries.map((entry) => entry.testId);
    expect(ids.indexOf('menu-item-cron')).toBe(ids.indexOf('menu-item-backups') + 1);
    expect(entries.find((entry) => entry.testId === 'menu-item-cron')).toMatchObject({
      label: 'menu.cron',
      to: '/admin/4/service/cron/',
    });
  });

  it('leaves them out without the cron right', () => {
    const entries = itemEntries(service({ service: 'read', service_cron: 'disabled' }), t);
    expect(entries.map((entry) => entry.testId)).not.toContain('menu-item-cron');
  });
});

describe('the spam filter’s item entry', () => {
  const mail = (permissions: Record<string, string>, hasMail = true) =>
    ({
      id: 4,
      reference: 'demo.test',
      hasDomain: false,
      hasService: false,
      hasMail,
      service: null,
      permissions,
    }) as unknown as PermissionSetData;
  const t = (key: string) => key;

  it('follows the mail entry for whoever sees the spam filter', () => {
    const entries = itemEntries(mail({ servicemail: 'read', servicemail_spam: 'read' }), t);
    const ids = entries.map((entry) => entry.testId);
    expect(ids.indexOf('menu-item-mail-spam')).toBe(ids.indexOf('menu-item-mail') + 1);
    expect(entries.find((entry) => entry.testId === 'menu-item-mail-spam')).toMatchObject({
      label: 'menu.mail_spam',
      to: '/admin/4/service/mail/spam/',
    });
  });

  it('is left out without the spam right or without mail', () => {
    const without = itemEntries(mail({ servicemail: 'read', servicemail_spam: 'disabled' }), t);
    expect(without.map((entry) => entry.testId)).not.toContain('menu-item-mail-spam');
    const noMail = itemEntries(mail({ servicemail_spam: 'write' }, false), t);
    expect(noMail.map((entry) => entry.testId)).not.toContain('menu-item-mail-spam');
  });
});
