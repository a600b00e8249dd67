import type { UserResourcePermissions } from '@panel247/contract/account-users';
import { PERMISSION_KEYS, type PermissionLevel } from '@panel247/contract/constants';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import type { Levels } from '../lib/permission-levels';
import { UserPermissionsCard } from './user-permissions-card';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

function every(level: PermissionLevel): Levels {
  return Object.fromEntries(PERMISSION_KEYS.map((key) => [key, level])) as Levels;
}

/**
 * A hosting service with mail and no domain. The editor may only view the FTP and the DNS zone;
 * the user already changes the DNS zone (kept or lowered, never taken above by the editor).
 */
const hosting: UserResourcePermissions = {
  id: 7,
  reference: 'example.com',
  hasDomain: false,
  hasService: true,
  hasMail: true,
  levels: { ...every('disabled'), service: 'read', service_dnszone: 'write', domain: 'write' },
  max: { ...every('write'), service_ftp: 'read', service_dnszone: 'read', servicemail_alias: 'disabled' },
};

function serve(resources: UserResourcePermissions[], total = resources.length) {
  return stubApi((call) => {
    if (call.path === 'users/5/permissions/') return envelope({ resources, total });
    if (call.path === 'users/5/permissions/set/') return envelope({}, { info: ['Permisos guardados'] });
    return envelope(null, { status: 404 });
  });
}

function option(key: string, label: string): HTMLInputElement {
  return within(screen.getByTestId(`level-7-${key}`)).getByLabelText(label) as HTMLInputElement;
}

describe('the permission editor', () => {
  it('shows the parts the resource has, and no option above what the editor holds unless the user holds it', async () => {
    const calls = serve([hosting], 1);
    renderWithProviders(<UserPermissionsCard userId={5} />);
    await screen.findByText('example.com');
    expect(calls[0]).toMatchObject({ path: 'users/5/permissions/', method: 'GET' });
    expect(calls[0]?.params.get('pageSize')).toBe('10');
    expect(calls[0]?.params.get('page')).toBe('1');
    // no domain part: its keys are not shown
    expect(screen.queryByTestId('level-7-domain')).toBeNull();
    expect(screen.getByTestId('level-7-servicemail')).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'FTP y archivos en example.com' })).toBeInTheDocument();
    // the editor only views the FTP: "change" is not offered
    expect(option('service_ftp', 'Consultar y modificar')).toBeDisabled();
    expect(option('service_ftp', 'Solo consultar')).not.toBeDisabled();
    // the user changes the DNS zone already: kept, though the editor could not give it
    expect(option('service_dnszone', 'Consultar y modificar')).not.toBeDisabled();
    expect(option('service_dnszone', 'Consultar y modificar')).toBeChecked();
    expect(option('servicemail_alias', 'Solo consultar')).toBeDisabled();
    expect(option('servicemail_alias', 'Sin acceso')).toBeChecked();
    expect(screen.getByTestId('save-7')).toBeDisabled();
  });

  it(`sets every key of the resource with "all", each capped by the rule, and saves all ${PERMISSION_KEYS.length} keys`, async () => {
    const calls = serve([hosting]);
    renderWithProviders(<UserPermissionsCard userId={5} />);
    await screen.findByText('example.com');
    fireEvent.click(screen.getByTestId('all-7-write'));
    expect(option('service', 'Consultar y modificar')).toBeChecked();
    expect(option('service_ftp', 'Solo consultar')).toBeChecked();
    expect(option('service_dnszone', 'Consultar y modificar')).toBeChecked();
    expect(option('servicemail_alias', 'Sin acceso')).toBeChecked();
    // one key lowered by hand after that
    fireEvent.click(option('service_backups', 'Solo consultar'));
    expect(screen.getByTestId('save-7')).not.toBeDisabled();
    fireEvent.click(screen.getByTestId('save-7'));
    await waitFor(() => expect(calls.some((call) => call.path === 'users/5/permissions/set/')).toBe(true));
    const save = calls.find((call) => call.path === 'users/5/permissions/set/');
    expect(save?.method).toBe('POST');
    expect(save?.params.get('resource')).toBe('7');
    const levels = JSON.parse(save?.params.get('levels') ?? '{}') as Levels;
    expect(Object.keys(levels).sort()).toEqual([...PERMISSION_KEYS].sort());
    expect(levels).toEqual({
      ...every('write'),
      // the domain part is not this resource's: sent as the user holds it
      ...Object.fromEntries(PERMISSION_KEYS.filter((key) => key.startsWith('domain')).map((key) => [key, 'disabled'])),
      domain: 'write',
      service_ftp: 'read',
      service_backups: 'read',
      servicemail_alias: 'disabled',
    });
    // the editor reads what the server kept
    await waitFor(() => expect(calls.filter((call) => call.path === 'users/5/permissions/').length).toBe(2));
  });

  it('takes everything away with "all: no access" and can undo it before saving', async () => {
    serve([hosting]);
    renderWithProviders(<UserPermissionsCard userId={5} />);
    await screen.findByText('example.com');
    fireEvent.click(screen.getByTestId('all-7-disabled'));
    expect(option('service_dnszone', 'Sin acceso')).toBeChecked();
    fireEvent.click(screen.getByTestId('undo-7'));
    expect(option('service_dnszone', 'Consultar y modificar')).toBeChecked();
    expect(screen.getByTestId('save-7')).toBeDisabled();
  });

  it('asks the server for the filtered page', async () => {
    const calls = serve([hosting], 25);
    renderWithProviders(<UserPermissionsCard userId={5} />);
    await screen.findByText('example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(calls.at(-1)?.params.get('page')).toBe('2'));
    fireEvent.change(screen.getByTestId('user-permissions-filter'), { target: { value: 'exa' } });
    // the typed filter settles (300 ms) before the server is asked, from the first page
    await waitFor(() => expect(calls.at(-1)?.params.get('filter')).toBe('exa'), { timeout: 10_000 });
    expect(calls.at(-1)?.params.get('page')).toBe('1');
  });
});
