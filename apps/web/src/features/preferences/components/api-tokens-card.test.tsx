import type { ApiTokenItem } from '@panel247/contract/api-tokens';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { ApiTokensCard } from './api-tokens-card';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const SECRET = `p247_${'x'.repeat(43)}`;
const used: ApiTokenItem = {
  id: 1,
  name: 'deploy',
  scope: [{ resourceId: 7, reference: 'shop.test', level: 'write' }],
  createdAt: 1_800_000_000,
  expiresAt: 4_000_000_000,
  lastUsedAt: 1_800_000_500,
  lastUsedIp: '198.51.100.23',
};
const unused: ApiTokenItem = { ...used, id: 2, name: 'backup script', lastUsedAt: null, lastUsedIp: '' };

function serve(initial: ApiTokenItem[], twoFactor = false) {
  let tokens = initial;
  return stubApi((call) => {
    if (call.path === 'user/apitokens/') return envelope({ tokens });
    if (call.path === 'user/twofactor/')
      return envelope({ enabled: twoFactor, recoveryCodesLeft: 10, required: false });
    if (call.path === 'user/apitokens/resources/') {
      return envelope({
        resources: [
          { id: 7, reference: 'shop.test', level: 'write' },
          { id: 8, reference: 'blog.test', level: 'read' },
        ],
      });
    }
    if (call.path === 'user/apitokens/create/') {
      const item = { ...unused, id: 3, name: call.params.get('name') ?? '' };
      tokens = [item, ...tokens];
      return envelope({ token: SECRET, item }, { info: ['Token creado'] });
    }
    if (call.path === 'user/apitokens/revokeall/') {
      const revoked = tokens.length;
      tokens = [];
      return envelope({ revoked }, { info: ['Se han revocado todos tus tokens de API'] });
    }
    const revoke = /^user\/apitokens\/(\d+)\/revoke\/$/.exec(call.path);
    if (revoke) {
      tokens = tokens.filter((item) => item.id !== Number(revoke[1]));
      return envelope({}, { info: ['Token revocado'] });
    }
    return envelope(null, { status: 404 });
  });
}

/** Generous waits: a busy machine renders the modal and the combobox slowly. */
const SLOW = { timeout: 15_000 };

describe('API tokens section', () => {
  it('lists each token with its scope, expiry, last use and address', async () => {
    serve([used, unused]);
    renderWithProviders(<ApiTokensCard />);
    const rows = await screen.findAllByTestId('api-token-row', {}, SLOW);
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByText('deploy')).toBeInTheDocument();
    expect(within(first).getByTestId('api-token-scope')).toHaveTextContent('shop.test (Consultar y modificar)');
    expect(within(first).getByText(/Último uso .* desde 198\.51\.100\.23/)).toBeInTheDocument();
    expect(within(second).getByText('Nunca usado')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revocar el token backup script' })).toBeInTheDocument();
  });

  it('shows the empty text without tokens', async () => {
    serve([]);
    renderWithProviders(<ApiTokensCard />);
    expect(await screen.findByTestId('api-tokens-empty', {}, SLOW)).toHaveTextContent('No tienes tokens de API.');
  });

  it('creates a token with the password and a current code, and shows its secret once', {
    timeout: 60_000,
  }, async () => {
    const calls = serve([], true);
    renderWithProviders(<ApiTokensCard />);
    await screen.findByTestId('api-tokens-empty', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('api-token-new')).toBeEnabled(), SLOW);
    fireEvent.click(screen.getByTestId('api-token-new'));
    const modal = await screen.findByTestId('api-token-create-modal', {}, SLOW);
    fireEvent.change(within(modal).getByTestId('api-token-name'), { target: { value: 'ci' } });
    const resources = within(modal).getByTestId('api-token-resources');
    fireEvent.click(resources);
    fireEvent.click(await screen.findByRole('option', { name: 'shop.test' }, SLOW));
    fireEvent.change(within(modal).getByTestId('api-token-password'), { target: { value: 'secret pass' } });
    fireEvent.change(within(modal).getByTestId('api-token-code'), { target: { value: '123456' } });
    fireEvent.click(within(modal).getByTestId('api-token-submit'));

    expect(await screen.findByTestId('api-token-secret', {}, SLOW)).toHaveTextContent(SECRET);
    const create = calls.find((call) => call.path === 'user/apitokens/create/');
    expect(create?.params.getAll('scope')).toEqual(['7:read']);
    expect(create?.params.get('code')).toBe('123456');
    expect(create?.params.get('expiresInDays')).toBe('30');
    fireEvent.click(screen.getByTestId('api-token-done'));
    await waitFor(() => expect(screen.queryByTestId('api-token-secret')).toBeNull(), SLOW);
    expect(await screen.findByTestId('api-token-row', {}, SLOW)).toHaveTextContent('ci');
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('gives each chosen resource its own level, write only where the user may change it', {
    timeout: 60_000,
  }, async () => {
    const calls = serve([]);
    renderWithProviders(<ApiTokensCard />);
    await screen.findByTestId('api-tokens-empty', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('api-token-new')).toBeEnabled(), SLOW);
    fireEvent.click(screen.getByTestId('api-token-new'));
    const modal = await screen.findByTestId('api-token-create-modal', {}, SLOW);
    fireEvent.change(within(modal).getByTestId('api-token-name'), { target: { value: 'two levels' } });
    fireEvent.click(within(modal).getByTestId('api-token-resources'));
    fireEvent.click(await screen.findByRole('option', { name: 'shop.test' }, SLOW));
    fireEvent.click(within(modal).getByTestId('api-token-resources'));
    fireEvent.click(await screen.findByRole('option', { name: 'blog.test' }, SLOW));

    const rows = await within(modal).findAllByTestId('api-token-level-row', {}, SLOW);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('shop.test'),
      expect.stringContaining('Tú solo puedes consultarlo'),
    ]);
    // Radio buttons, one group per resource (arrow keys move between them), named after it.
    const shopWrite = within(rows[0] as HTMLElement).getByRole('radio', { name: 'Consultar y modificar' });
    const blogWrite = within(rows[1] as HTMLElement).getByRole('radio', { name: 'Consultar y modificar' });
    expect(within(rows[0] as HTMLElement).getByRole('radio', { name: 'Solo consultar' })).toBeChecked();
    expect(blogWrite).toBeDisabled();
    expect(within(modal).getByRole('radiogroup', { name: 'Acceso a shop.test' })).toBeInTheDocument();
    fireEvent.click(shopWrite);
    await waitFor(() => expect(shopWrite).toBeChecked());

    fireEvent.change(within(modal).getByTestId('api-token-password'), { target: { value: 'secret pass' } });
    fireEvent.click(within(modal).getByTestId('api-token-submit'));
    await screen.findByTestId('api-token-secret', {}, SLOW);
    const create = calls.find((call) => call.path === 'user/apitokens/create/');
    expect(create?.params.getAll('scope')).toEqual(['7:write', '8:read']);
  });

  it('offers revoking every token only when there are some', async () => {
    serve([]);
    renderWithProviders(<ApiTokensCard />);
    await screen.findByTestId('api-tokens-empty', {}, SLOW);
    expect(screen.queryByTestId('api-tokens-revoke-all')).toBeNull();
  });

  it('revokes every token after the confirmation, with the password and, with TOTP on, a code', {
    timeout: 60_000,
  }, async () => {
    const calls = serve([used, unused], true);
    renderWithProviders(<ApiTokensCard />);
    await screen.findAllByTestId('api-token-row', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('api-tokens-revoke-all')).toBeEnabled(), SLOW);
    fireEvent.click(screen.getByTestId('api-tokens-revoke-all'));
    const modal = await screen.findByRole('dialog', { name: '¿Revocar todos tus tokens de API?' }, SLOW);
    expect(within(modal).getByText(/Cambiar la contraseña también los revoca/)).toBeInTheDocument();
    fireEvent.click(within(modal).getByTestId('api-tokens-revoke-all-submit'));
    expect(await within(modal).findAllByText('Este campo es obligatorio', {}, SLOW)).toHaveLength(2);
    expect(calls.some((call) => call.path === 'user/apitokens/revokeall/')).toBe(false);

    fireEvent.change(within(modal).getByTestId('api-tokens-revoke-all-password'), { target: { value: 'secret pass' } });
    fireEvent.change(within(modal).getByTestId('api-tokens-revoke-all-code'), { target: { value: '123456' } });
    fireEvent.click(within(modal).getByTestId('api-tokens-revoke-all-submit'));
    expect(await screen.findByTestId('api-tokens-empty', {}, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    const call = calls.find((entry) => entry.path === 'user/apitokens/revokeall/');
    expect(call?.method).toBe('POST');
    expect(call?.params.get('password')).toBe('secret pass');
    expect(call?.params.get('code')).toBe('123456');
  });

  it('revokes a token only after the confirmation', async () => {
    const calls = serve([used]);
    renderWithProviders(<ApiTokensCard />);
    fireEvent.click(await screen.findByTestId('api-token-revoke', {}, SLOW));
    fireEvent.click(await screen.findByTestId('api-token-revoke-modal-confirm', {}, SLOW));
    expect(await screen.findByTestId('api-tokens-empty', {}, SLOW)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      'user/apitokens/1/revoke/',
    ]);
  });
});
