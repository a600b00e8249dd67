import type { AccountUser } from '@panel247/contract/account-users';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { emulateScreen } from '../../../test/screen-width';
import { UsersView } from './users-view';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
let restoreScreen = () => {};
beforeEach(() => {
  restoreScreen = emulateScreen();
});
afterEach(() => {
  vi.unstubAllGlobals();
  restoreScreen();
});

const me: AccountUser = {
  id: 1,
  username: 'admin',
  email: 'admin@demo.test',
  lastLoginAt: 1_800_000_000,
  lastLoginIp: '192.0.2.1',
  twoFactor: true,
  disabled: false,
  manageUsers: true,
  invitation: null,
  self: true,
};
const maria: AccountUser = {
  ...me,
  id: 2,
  username: 'maria',
  email: 'maria@demo.test',
  manageUsers: false,
  self: false,
};
const invited: AccountUser = {
  ...maria,
  id: 3,
  username: 'pere',
  email: 'pere@demo.test',
  lastLoginAt: null,
  lastLoginIp: '',
  twoFactor: false,
  invitation: 'pending',
};

/** The list answers `users`; create answers as told; every other call 404. */
function serve(
  users: AccountUser[],
  create: () => Response = () => envelope({ id: 9 }, { info: ['Invitación enviada'] }),
) {
  return stubApi((call) => {
    if (call.path === 'users/list/') return envelope({ users, total: users.length });
    if (call.path === 'users/create/') return create();
    if (/^users\/\d+\/\w+\/$/.test(call.path)) return envelope({}, { info: ['Hecho'] });
    return envelope(null, { status: 404 });
  });
}

function renderView() {
  return renderWithProviders(
    <MemoryRouter>
      <UsersView />
    </MemoryRouter>,
  );
}

function row(name: string): HTMLElement {
  return document.querySelector(`[data-name="${name}"]`) as HTMLElement;
}

/** Opens a row's actions menu and returns the test ids of its entries. */
async function menuOf(name: string): Promise<string[]> {
  fireEvent.click(within(row(name)).getByRole('button', { name: `Acciones de ${name}` }));
  const menu = await screen.findByRole('menu');
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.getAttribute('data-testid') ?? '');
}

describe('the users list', () => {
  it('shows each user with their last login, second factor, state and right to manage users', async () => {
    const calls = serve([me, maria, invited]);
    renderView();
    await screen.findByText('maria');
    expect(calls[0]).toMatchObject({ path: 'users/list/', method: 'GET' });
    expect(Object.fromEntries(calls[0]?.params ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      filter: '',
      sort: 'username',
      order: 'asc',
    });
    expect(within(row('admin')).getByTestId('user-self')).toHaveTextContent('Tú');
    expect(within(row('maria')).queryByTestId('user-self')).toBeNull();
    expect(within(row('admin')).getByTestId('user-manager')).toHaveTextContent('Gestiona usuarios');
    expect(within(row('maria')).queryByTestId('user-manager')).toBeNull();
    expect(within(row('maria')).getByTestId('user-last-login')).toHaveTextContent('desde 192.0.2.1');
    expect(within(row('pere')).getByTestId('user-last-login')).toHaveTextContent('Nunca');
    expect(within(row('maria')).getByTestId('user-two-factor')).toHaveTextContent('Activada');
    expect(within(row('pere')).getByTestId('user-two-factor')).toHaveTextContent('Desactivada');
    expect(within(row('maria')).getByTestId('user-state')).toHaveTextContent('Activo');
    expect(within(row('pere')).getByTestId('user-state')).toHaveTextContent('Invitado (pendiente)');
    expect(within(row('maria')).getByRole('link', { name: 'maria' })).toHaveAttribute('href', '/admin/users/2/');
  });

  it('offers no access change on one’s own row, and the invitation’s actions only while there is one', async () => {
    serve([me, maria, invited]);
    renderView();
    await screen.findByText('maria');
    expect(await menuOf('admin')).toEqual(['user-edit']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(await menuOf('maria')).toEqual([
      'user-edit',
      'user-disable',
      'user-resetTwoFactor',
      'user-endSessions',
      'user-remove',
    ]);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(await menuOf('pere')).toEqual([
      'user-edit',
      'user-invitationResend',
      'user-invitationCancel',
      'user-disable',
      'user-endSessions',
      'user-remove',
    ]);
  });

  it('asks before taking access away, and runs a harmless action at once', async () => {
    const calls = serve([me, maria, invited]);
    renderView();
    await screen.findByText('maria');
    await menuOf('maria');
    fireEvent.click(screen.getByTestId('user-remove'));
    const modal = await screen.findByTestId('user-confirm-modal');
    expect(within(modal).getByText(/maria no podrá volver a iniciar sesión/)).toBeInTheDocument();
    expect(calls.some((call) => call.path === 'users/2/remove/')).toBe(false);
    fireEvent.click(screen.getByTestId('user-confirm-modal-confirm'));
    await waitFor(() => expect(calls.some((call) => call.path === 'users/2/remove/')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('user-confirm-modal-confirm')).toBeNull());

    await menuOf('pere');
    fireEvent.click(screen.getByTestId('user-invitationResend'));
    await waitFor(() =>
      expect(calls.find((call) => call.path === 'users/3/invitation/resend/')).toMatchObject({ method: 'POST' }),
    );
    expect(screen.queryByTestId('user-confirm-modal-confirm')).toBeNull();
  });

  it('invites a new user and asks for the list again', async () => {
    const calls = serve([me]);
    renderView();
    await screen.findByText('admin');
    fireEvent.click(screen.getByTestId('user-create'));
    const form = await screen.findByTestId('user-create-form');
    fireEvent.change(within(form).getByTestId('user-username-input'), { target: { value: 'nuria' } });
    fireEvent.change(within(form).getByTestId('user-email-input'), { target: { value: 'nuria@demo.test' } });
    const lists = calls.filter((call) => call.path === 'users/list/').length;
    fireEvent.click(screen.getByTestId('user-create-submit'));
    await waitFor(() => expect(screen.queryByTestId('user-create-form')).toBeNull());
    const create = calls.find((call) => call.path === 'users/create/');
    expect(create?.method).toBe('POST');
    expect(Object.fromEntries(create?.params ?? [])).toEqual({ username: 'nuria', email: 'nuria@demo.test' });
    await waitFor(() => expect(calls.filter((call) => call.path === 'users/list/').length).toBeGreaterThan(lists));
  });

  it('shows the server’s field error under its field and keeps the dialog open', async () => {
    serve([me], () =>
      envelope(null, { status: 400, inputs: ['username'], errors: ['Ya hay un usuario con ese nombre'] }),
    );
    renderView();
    await screen.findByText('admin');
    fireEvent.click(screen.getByTestId('user-create'));
    const form = await screen.findByTestId('user-create-form');
    fireEvent.change(within(form).getByTestId('user-username-input'), { target: { value: 'admin' } });
    fireEvent.change(within(form).getByTestId('user-email-input'), { target: { value: 'otro@demo.test' } });
    fireEvent.click(screen.getByTestId('user-create-submit'));
    expect(await within(form).findByText('Ya hay un usuario con ese nombre')).toBeInTheDocument();
    expect(within(form).getByTestId('user-username-input')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('user-create-form')).toBeInTheDocument();
  });

  it('checks the name before calling', async () => {
    const calls = serve([me]);
    renderView();
    await screen.findByText('admin');
    fireEvent.click(screen.getByTestId('user-create'));
    const form = await screen.findByTestId('user-create-form');
    fireEvent.change(within(form).getByTestId('user-username-input'), { target: { value: 'Bad Name' } });
    fireEvent.click(screen.getByTestId('user-create-submit'));
    expect(await within(form).findByText(/^Usa solo minúsculas/)).toBeInTheDocument();
    expect(within(form).getByText('Este campo es obligatorio')).toBeInTheDocument();
    expect(calls.some((call) => call.path === 'users/create/')).toBe(false);
  });

  it('stacks the users as cards on a phone, with the same badges and menu', async () => {
    restoreScreen();
    restoreScreen = emulateScreen({ phone: true });
    serve([me, maria]);
    renderView();
    await screen.findByText('maria');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByTestId('users-list')).toHaveAttribute('data-layout', 'stacked');
    expect(within(row('admin')).getByTestId('user-self')).toBeInTheDocument();
    expect(within(row('maria')).getByRole('button', { name: 'Acciones de maria' })).toBeInTheDocument();
  });

  it('says when there is no user to show', async () => {
    serve([]);
    renderView();
    expect(await screen.findByText('No hay usuarios')).toBeInTheDocument();
  });
});
