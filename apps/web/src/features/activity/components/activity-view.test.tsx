import type { ActivityEntry, ActivityListData } from '@panel247/contract/activity';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { emulateScreen } from '../../../test/screen-width';
import { ActivityView } from './activity-view';

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

const edit: ActivityEntry = {
  id: 30,
  at: 1_800_000_000,
  user: 'admin',
  ip: '192.0.2.1',
  via: 'web',
  resource: { id: 7, reference: 'example.com' },
  area: 'dns',
  action: 'dns/save',
  target: 'www A',
  changes: [{ field: 'value', before: '192.0.2.10', after: '192.0.2.11' }],
};
const byToken: ActivityEntry = {
  ...edit,
  id: 29,
  via: 'api',
  area: 'mail',
  action: 'correo/create',
  target: '',
  changes: [{ field: 'name', before: null, after: 'sales' }],
};
const login: ActivityEntry = {
  ...edit,
  id: 28,
  resource: null,
  area: 'security',
  action: 'auth.login_failed',
  target: '',
  changes: [],
};
const unknownAction: ActivityEntry = { ...edit, id: 27, action: 'something/new', changes: [] };
const byMailServer: ActivityEntry = {
  ...edit,
  id: 26,
  user: 'ventas@example.com',
  via: 'smtp',
  area: 'mail',
  action: 'mail.send_limit_reached',
  target: 'ventas@example.com',
  changes: [],
};

function serve(entries: ActivityEntry[], total = entries.length) {
  return stubApi((call) => {
    if (call.path === 'activity/list/') {
      const data: ActivityListData = { entries, total, users: ['admin', 'maria'] };
      return envelope(data);
    }
    if (call.path === 'activity/export/') {
      return new Response('time,user\r\n', {
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="activity.csv"' },
      });
    }
    return envelope(null, { status: 404 });
  });
}

describe('the activity view', () => {
  it('lists who did what, when, from where and what changed, in the user’s language', async () => {
    serve([edit, byToken, login, unknownAction, byMailServer]);
    renderWithProviders(<ActivityView />);
    const rows = await screen.findAllByRole('row');
    const body = rows.slice(1);
    expect(body).toHaveLength(5);
    const [first, second, third, fourth, fifth] = body as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(first).getByText('Registro DNS modificado')).toBeInTheDocument();
    expect(within(first).getByText('Zona DNS')).toBeInTheDocument();
    expect(within(first).getByText('example.com · www A')).toBeInTheDocument();
    expect(within(first).getByText('valor: 192.0.2.10 → 192.0.2.11')).toBeInTheDocument();
    expect(within(first).getByText('192.0.2.1')).toBeInTheDocument();
    // a token's change says so
    expect(within(second).getByText('API')).toBeInTheDocument();
    expect(within(second).getByText('nombre: sales')).toBeInTheDocument();
    expect(within(third).getByText('Inicio de sesión fallido')).toBeInTheDocument();
    expect(within(third).getByText('Seguridad')).toBeInTheDocument();
    // a call this version has no words for still shows, by its own name
    expect(within(fourth).getByText('something/new')).toBeInTheDocument();
    // the mail server's refusal over the sending limit says who refused
    expect(within(fifth).getByText('SMTP').closest('[title]')).toHaveAttribute(
      'title',
      'Hecho por el servidor de correo',
    );
    expect(within(first).queryByText('SMTP')).toBeNull();
  });

  it('asks the server for the filtered page, and only the item’s entries on an item’s page', async () => {
    const calls = serve([edit], 25);
    const item = { id: 7, reference: 'example.com' } as PermissionSetData;
    renderWithProviders(<ActivityView item={item} />);
    await screen.findByText('Registro DNS modificado');
    expect(calls[0]?.params.get('resource')).toBe('7');
    expect(calls[0]?.params.get('page')).toBe('1');

    fireEvent.click(screen.getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(calls.at(-1)?.params.get('page')).toBe('2'));

    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(calls.at(-1)?.params.get('from')).toBe('2026-11-01'));
    // a new filter starts from the first page
    expect(calls.at(-1)?.params.get('page')).toBe('1');
    expect(calls.at(-1)?.params.get('resource')).toBe('7');
  });

  it('exports what the filters keep', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    const calls = serve([edit]);
    renderWithProviders(<ActivityView />);
    await screen.findByText('Registro DNS modificado');
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(calls.at(-1)?.params.get('to')).toBe('2026-11-20'));
    fireEvent.click(screen.getByTestId('activity-export'));
    await waitFor(() => expect(calls.at(-1)?.path).toBe('activity/export/'));
    expect(calls.at(-1)?.params.get('to')).toBe('2026-11-20');
  });

  it('stacks each entry as a card on a phone, with the same words', async () => {
    restoreScreen();
    restoreScreen = emulateScreen({ phone: true });
    serve([edit]);
    renderWithProviders(<ActivityView />);
    expect(await screen.findByText('Registro DNS modificado')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('valor: 192.0.2.10 → 192.0.2.11')).toBeInTheDocument();
  });

  it('says when nothing matches', async () => {
    serve([]);
    renderWithProviders(<ActivityView />);
    expect(await screen.findByText('No hay actividad con estos filtros')).toBeInTheDocument();
  });
});
