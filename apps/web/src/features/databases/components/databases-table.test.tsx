import { MantineProvider } from '@mantine/core';
import type { HostedDatabase } from '@panel247/contract/databases';
import { fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { emulateScreen } from '../../../test/screen-width';
import { type DatabaseRowActions, DatabasesTable } from './databases-table';

let restoreScreen: () => void = () => {};
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
  restoreScreen = emulateScreen();
});
afterAll(() => {
  restoreScreen();
});

const site: HostedDatabase = {
  id: 1,
  bbdd: 'demotest_1',
  user: 'demotest_1',
  password: '',
  externalAccess: true,
  eliminable: false,
  size: 1536,
};
const blog: HostedDatabase = { ...site, id: 2, bbdd: 'demotest_2', user: 'demotest_2', externalAccess: false };

function actions(): DatabaseRowActions {
  return {
    onShowPassword: vi.fn(),
    onPhpMyAdmin: vi.fn(),
    onDump: vi.fn(),
    onPassword: vi.fn(),
    onToggleExternal: vi.fn(),
    onDelete: vi.fn(),
  };
}

function renderTable(canWrite: boolean, rowActions = actions(), databases = [site, { ...blog, eliminable: true }]) {
  render(
    <MantineProvider env="test">
      <DatabasesTable
        databases={databases}
        canWrite={canWrite}
        emptyText="vacío"
        busy={false}
        pending={{ login: null, dump: null }}
        actions={rowActions}
      />
    </MantineProvider>,
  );
  return rowActions;
}

function rowOf(name: string): HTMLElement {
  const row = document.querySelector<HTMLElement>(`tr[data-name="${name}"]`);
  if (!row) throw new Error(`no row ${name}`);
  return row;
}

describe('database table', () => {
  it('shows size in 1024 units and external access; writers get every action, delete only when eliminable', () => {
    renderTable(true);
    const first = within(rowOf('demotest_1'));
    expect(first.getByTestId('ddbb-size')).toHaveTextContent('1,5 KB');
    expect(first.getByRole('switch', { name: 'Acceso externo a demotest_1' })).toBeChecked();
    expect(first.getByTestId('ddbb-external-state')).toHaveTextContent('Permitido');
    for (const id of ['ddbb-show-password', 'ddbb-phpmyadmin', 'ddbb-dump', 'ddbb-password']) {
      expect(first.getByTestId(id)).toBeInTheDocument();
    }
    expect(first.queryByTestId('ddbb-delete')).toBeNull();
    expect(within(rowOf('demotest_2')).getByTestId('ddbb-delete')).toBeInTheDocument();
    expect(within(rowOf('demotest_2')).getByRole('switch')).not.toBeChecked();
  });

  it('readers see the passwords and phpMyAdmin, and the access state only as text', () => {
    renderTable(false);
    const first = within(rowOf('demotest_1'));
    expect(first.getByTestId('ddbb-show-password')).toBeInTheDocument();
    expect(first.getByTestId('ddbb-phpmyadmin')).toBeInTheDocument();
    for (const id of ['ddbb-dump', 'ddbb-password', 'ddbb-delete']) expect(first.queryByTestId(id)).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(first.getByTestId('ddbb-external-state')).toHaveTextContent('Permitido');
    expect(within(rowOf('demotest_2')).getByTestId('ddbb-external-state')).toHaveTextContent('Solo local');
  });

  it('the switch only asks: it reports the row and keeps its state', () => {
    const rowActions = renderTable(true);
    const toggle = within(rowOf('demotest_2')).getByRole('switch');
    fireEvent.click(toggle);
    expect(rowActions.onToggleExternal).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
    expect(toggle).not.toBeChecked();
  });

  it('shows the empty text without rows', () => {
    renderTable(true, actions(), []);
    expect(screen.getByText('vacío')).toBeInTheDocument();
  });
});
