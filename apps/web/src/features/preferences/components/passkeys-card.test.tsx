import type { Passkey } from '@panel247/contract/passkey';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { PasskeysCard } from './passkeys-card';

// jsdom has no WebAuthn: the browser's side answers at once, as an authenticator would.
vi.mock('../../../lib/passkey-browser', () => ({
  passkeysAvailable: () => true,
  createPasskeyCredential: vi.fn(async () => '{"id":"new"}'),
  getPasskeyAssertion: vi.fn(async () => '{"id":"signed"}'),
}));

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const laptop: Passkey = { id: 3, name: 'Portátil', backedUp: false, createdAt: 1_800_000_000, lastUsedAt: null };
const phone: Passkey = { id: 4, name: 'Móvil', backedUp: true, createdAt: 1_800_000_100, lastUsedAt: 1_800_000_200 };

/** The list, and a rename that answers `renameAnswer` (a field error, or the new name taken). */
function serve(renameAnswer: (name: string) => Response | null = () => null) {
  let passkeys = [laptop, phone];
  return stubApi((call) => {
    if (call.path === 'user/passkeys/') return envelope({ passkeys });
    if (call.path === 'user/twofactor/status/') return envelope({ enabled: false, recoveryCodesLeft: 0 });
    const match = /^user\/passkeys\/(\d+)\/rename\/$/.exec(call.path);
    if (match) {
      const name = call.params.get('name') ?? '';
      const refused = renameAnswer(name);
      if (refused) return refused;
      passkeys = passkeys.map((p) => (p.id === Number(match[1]) ? { ...p, name } : p));
      return envelope({}, { info: ['Llave de acceso renombrada'] });
    }
    return envelope(null, { status: 404 });
  });
}

describe('PasskeysCard: renaming', () => {
  it('opens the dialog with the name filled in, sends the trimmed name and shows the new one', async () => {
    const calls = serve();
    renderWithProviders(<PasskeysCard />);
    const rows = await screen.findAllByTestId('passkey-row');
    fireEvent.click(within(rows[0] as HTMLElement).getByTestId('passkey-rename'));
    const dialog = await screen.findByRole('dialog', { name: 'Renombrar la llave de acceso Portátil' });
    const field = within(dialog).getByTestId('passkey-rename-name') as HTMLInputElement;
    expect(field.value).toBe('Portátil');
    fireEvent.change(field, { target: { value: '  Portátil del trabajo ' } });
    fireEvent.click(within(dialog).getByTestId('passkey-rename-submit'));
    await screen.findByText('Portátil del trabajo');
    const rename = calls.find((call) => call.path === 'user/passkeys/3/rename/');
    expect(rename?.method).toBe('POST');
    expect(rename?.params.get('name')).toBe('Portátil del trabajo');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('checks the name before sending it, and shows the server’s field error on the field', async () => {
    const calls = serve(() => envelope(null, { status: 400, errors: ['Demasiado largo'], inputs: ['name'] }));
    renderWithProviders(<PasskeysCard />);
    const rows = await screen.findAllByTestId('passkey-row');
    fireEvent.click(within(rows[1] as HTMLElement).getByTestId('passkey-rename'));
    const dialog = await screen.findByRole('dialog', { name: 'Renombrar la llave de acceso Móvil' });
    const field = within(dialog).getByTestId('passkey-rename-name');
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('passkey-rename-submit'));
    await within(dialog).findByText('Este campo es obligatorio');
    expect(calls.some((call) => call.path.endsWith('/rename/'))).toBe(false);

    fireEvent.change(field, { target: { value: 'Otro nombre' } });
    fireEvent.click(within(dialog).getByTestId('passkey-rename-submit'));
    await within(dialog).findByText('Demasiado largo');
    expect(screen.getByRole('dialog', { name: 'Renombrar la llave de acceso Móvil' })).toBeTruthy();

    // Opened again, it starts from the passkey's name, without the earlier error.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(within(rows[1] as HTMLElement).getByTestId('passkey-rename'));
    const again = await screen.findByRole('dialog', { name: 'Renombrar la llave de acceso Móvil' });
    expect((within(again).getByTestId('passkey-rename-name') as HTMLInputElement).value).toBe('Móvil');
    expect(within(again).queryByText('Demasiado largo')).toBeNull();
  });
});

/**
 * The list (`passkeys`), the TOTP status, and an add whose options call answers `optionsAnswer`
 * (a field error) or the ceremony's options.
 */
function serveAdding(
  passkeys: Passkey[],
  totp: boolean,
  optionsAnswer: (params: URLSearchParams) => Response | null = () => null,
) {
  return stubApi((call) => {
    if (call.path === 'user/passkeys/') return envelope({ passkeys });
    if (call.path === 'user/twofactor/') return envelope({ enabled: totp, recoveryCodesLeft: 10, required: false });
    if (call.path === 'user/passkeys/reauth/options/') return envelope({ options: { challenge: 'reauth' } });
    if (call.path === 'user/passkeys/register/options/') {
      return optionsAnswer(call.params) ?? envelope({ options: { challenge: 'register' } });
    }
    if (call.path === 'user/passkeys/register/') {
      return envelope({ ...laptop, id: 9, name: 'Nueva' }, { info: ['Llave de acceso añadida'] });
    }
    return envelope(null, { status: 404 });
  });
}

async function openAddDialog() {
  renderWithProviders(<PasskeysCard />);
  await waitFor(() => expect(screen.getByTestId('passkey-add')).toBeEnabled());
  fireEvent.click(screen.getByTestId('passkey-add'));
  const dialog = await screen.findByRole('dialog', { name: 'Añadir una llave de acceso' });
  fireEvent.change(within(dialog).getByTestId('passkey-name'), { target: { value: 'Nueva' } });
  fireEvent.change(within(dialog).getByTestId('passkey-add-password'), { target: { value: 'my password' } });
  return dialog;
}

describe('PasskeysCard: adding', () => {
  it('with TOTP on, asks for a current code and sends it with the password', async () => {
    const calls = serveAdding([], true);
    const dialog = await openAddDialog();
    expect(within(dialog).getByText(/escribe tu contraseña y un código actual/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByTestId('passkey-add-submit'));
    await within(dialog).findByText('Este campo es obligatorio');
    expect(calls.some((call) => call.path.startsWith('user/passkeys/register'))).toBe(false);

    fireEvent.change(within(dialog).getByTestId('passkey-add-code'), { target: { value: ' 123456 ' } });
    fireEvent.click(within(dialog).getByTestId('passkey-add-submit'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const options = calls.find((call) => call.path === 'user/passkeys/register/options/');
    expect(options?.params.get('password')).toBe('my password');
    expect(options?.params.get('code')).toBe('123456');
    expect(options?.params.has('credential')).toBe(false);
    expect(calls.find((call) => call.path === 'user/passkeys/register/')?.params.get('name')).toBe('Nueva');
  });

  it('shows the server’s translated error on the code field and keeps the dialog open', async () => {
    serveAdding([], true, () =>
      envelope(null, { status: 400, errors: ['El código no es correcto'], inputs: ['code'] }),
    );
    const dialog = await openAddDialog();
    fireEvent.change(within(dialog).getByTestId('passkey-add-code'), { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByTestId('passkey-add-submit'));
    const field = within(dialog).getByTestId('passkey-add-code');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getAllByText('El código no es correcto').length).toBeGreaterThan(0);
    expect(screen.getByRole('dialog', { name: 'Añadir una llave de acceso' })).toBeInTheDocument();
  });

  it('with passkeys and no TOTP, confirms with one of them first: no code field', async () => {
    const calls = serveAdding([laptop], false);
    const dialog = await openAddDialog();
    expect(within(dialog).queryByTestId('passkey-add-code')).toBeNull();
    expect(within(dialog).queryByTestId('passkey-add-submit')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('passkey-add-submit-passkey'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const paths = calls.filter((call) => call.method === 'POST').map((call) => call.path);
    expect(paths).toEqual([
      'user/passkeys/reauth/options/',
      'user/passkeys/register/options/',
      'user/passkeys/register/',
    ]);
    const options = calls.find((call) => call.path === 'user/passkeys/register/options/');
    expect(options?.params.get('credential')).toBe('{"id":"signed"}');
    expect(options?.params.has('code')).toBe(false);
  });

  it('without a second factor, the password alone', async () => {
    const calls = serveAdding([], false);
    const dialog = await openAddDialog();
    expect(within(dialog).queryByTestId('passkey-add-code')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('passkey-add-submit'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const options = calls.find((call) => call.path === 'user/passkeys/register/options/');
    expect([...(options?.params.keys() ?? [])]).toEqual(['password']);
  });
});
