import type { AccountUser } from '@panel247/contract/account-users';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { UserDetailView } from './user-detail-view';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const maria: AccountUser = {
  id: 2,
  username: 'maria',
  email: 'maria@demo.test',
  lastLoginAt: null,
  lastLoginIp: '',
  twoFactor: false,
  disabled: false,
  manageUsers: false,
  invitation: null,
  self: false,
};
const me: AccountUser = { ...maria, id: 1, username: 'admin', manageUsers: true, self: true };
const pere: AccountUser = { ...maria, id: 3, username: 'pere' };

function serve() {
  let current = maria;
  return stubApi((call) => {
    if (call.path === 'users/1/') return envelope({ user: me });
    if (call.path === 'users/2/') return envelope({ user: current });
    if (call.path === 'users/list/') return envelope({ users: [me, maria, pere], total: 3 });
    if (/^users\/\d+\/permissions\/$/.test(call.path)) return envelope({ resources: [], total: 0 });
    if (call.path === 'users/2/permissions/copy/') {
      return envelope({ changed: 3, limited: 2 }, { info: ['Permisos copiados'] });
    }
    if (call.path === 'users/2/manager/') {
      current = { ...current, manageUsers: call.params.get('manageUsers') === '1' };
      return envelope({}, { info: ['Hecho'] });
    }
    if (call.path === 'users/2/remove/') return envelope({}, { info: ['Usuario eliminado'] });
    return envelope(null, { status: 404, errors: ['Recurso no encontrado'] });
  });
}

function renderUser(id: number) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[`/admin/users/${id}/`]}>
      <Routes>
        <Route path="/admin/users/:id/" element={<UserDetailView id={id} />} />
        <Route path="/admin/users/" element={<p data-testid="users-page">list</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('a user’s page', () => {
  it('shows the not-found view for an id the server does not know', async () => {
    serve();
    renderUser(99);
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });

  it('gives and takes the right to manage users', async () => {
    const calls = serve();
    renderUser(2);
    const toggle = await screen.findByRole('switch', { name: /^Puede gestionar usuarios/ });
    expect(toggle).not.toBeChecked();
    expect(toggle).not.toBeDisabled();
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByRole('switch', { name: /^Puede gestionar usuarios/ })).toBeChecked());
    const call = calls.find((entry) => entry.path === 'users/2/manager/');
    expect(call?.method).toBe('POST');
    expect(call?.params.get('manageUsers')).toBe('1');
    expect(await screen.findByTestId('user-manager')).toBeInTheDocument();
  });

  it('keeps one’s own right and access out of reach', async () => {
    serve();
    renderUser(1);
    expect(await screen.findByRole('switch', { name: /^Puede gestionar usuarios/ })).toBeDisabled();
    expect(screen.getByText('No puedes cambiar tu propio derecho a gestionar usuarios.')).toBeInTheDocument();
    // nothing of their own access to act on: no actions menu at all
    expect(screen.queryByRole('button', { name: 'Acciones de admin' })).toBeNull();
  });

  it('copies another user’s permissions after a confirmation and says what changed', async () => {
    const calls = serve();
    renderUser(2);
    const select = await screen.findByRole('combobox', { name: 'Igual que otro usuario' });
    // the other users are asked for once the control is used
    expect(calls.some((call) => call.path === 'users/list/')).toBe(false);
    fireEvent.click(select);
    // the user themself is not offered
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['admin', 'pere']);
    fireEvent.click(screen.getByRole('option', { name: 'pere' }));
    fireEvent.click(screen.getByTestId('user-copy'));
    const modal = await screen.findByTestId('user-copy-modal');
    expect(within(modal).getByText(/maria tendrá los mismos permisos que pere/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('user-copy-modal-confirm'));
    const outcome = await screen.findByTestId('user-copy-outcome');
    expect(outcome).toHaveTextContent('Permisos copiados de pere: han cambiado 3 recursos.');
    expect(outcome).toHaveTextContent('2 permisos se han quedado por debajo de los de pere');
    expect(calls.find((call) => call.path === 'users/2/permissions/copy/')?.params.get('from')).toBe('3');
  });

  it('goes back to the list once the user is removed', async () => {
    serve();
    renderUser(2);
    fireEvent.click(await screen.findByRole('button', { name: 'Acciones de maria' }));
    fireEvent.click(await screen.findByTestId('user-remove'));
    fireEvent.click(await screen.findByTestId('user-confirm-modal-confirm'));
    expect(await screen.findByTestId('users-page')).toBeInTheDocument();
  });
});
