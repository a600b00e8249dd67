import type { CronListData, CronTask } from '@panel247/contract/cron';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, heldResponse, renderWithProviders, stubApi } from '../../../test/api-stub';
import { emulateScreen } from '../../../test/screen-width';
import { buildCronTask } from '../lib/cron-fixtures';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));
const { CronView } = await import('./cron-view');

let restoreScreen: () => void = () => {};
beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
  restoreScreen = emulateScreen();
});
afterAll(() => restoreScreen());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function serviceSet(level: 'read' | 'write'): PermissionSetData {
  return {
    id: 4,
    reference: 'demo.test',
    referencePunycode: 'demo.test',
    hasDomain: false,
    hasService: true,
    hasMail: false,
    domain: null,
    service: { expireTS: 0, isRedirAndParking: false },
    mail: null,
    dnszone: null,
    permissions: { service: 'read', service_cron: level },
  } as unknown as PermissionSetData;
}

const cleanup = buildCronTask({
  nextRuns: [1_800_000_000, 1_800_086_400, 1_800_172_800],
  email: 'ana@demo.test',
  lastRun: {
    id: 30,
    startedAt: 1_799_900_000,
    finishedAt: 1_799_900_004,
    exitCode: 2,
    outcome: 'failed',
    output: 'PHP Fatal error',
    trigger: 'schedule',
  },
});
const ping: CronTask = {
  ...cleanup,
  id: 8,
  kind: 'url',
  target: 'https://demo.test/ping',
  schedule: '*/5 * * * *',
  description: 'Cada 5 minutos',
  email: '',
  enabled: false,
  lastRun: null,
};

function listData(tasks: CronTask[], maxTasks: number | null = 10): CronListData {
  return { tasks, limits: { maxTasks, minIntervalMinutes: 5 }, timezone: 'Europe/Madrid' };
}

function renderView(level: 'read' | 'write' = 'write') {
  return renderWithProviders(
    <MemoryRouter>
      <CronView set={serviceSet(level)} />
    </MemoryRouter>,
  );
}

function rowOf(task: CronTask): HTMLElement {
  const row = document.querySelector<HTMLElement>(`[data-task="${task.id}"]`);
  if (!row) throw new Error(`no row for task ${task.id}`);
  return row;
}

describe('scheduled tasks view', () => {
  it('lists each task: what runs, when in words with its next run, its mail, its state and its last run', async () => {
    const calls = stubApi(() => envelope(listData([cleanup, ping])));
    renderView();
    await screen.findByText('A las 03:15, todos los días');
    expect(calls[0]).toMatchObject({ path: 'service/4/cron/list/', method: 'GET' });

    const first = within(rowOf(cleanup));
    expect(first.getByTestId('cron-target')).toHaveTextContent('cron/cleanup.php');
    expect(first.getByTestId('cron-kind')).toHaveTextContent('Script PHP');
    expect(first.getByText('15 3 * * *')).toBeInTheDocument();
    expect(first.getByTestId('cron-next-run')).toHaveAttribute('dateTime', new Date(1_800_000_000_000).toISOString());
    expect(first.getByText('ana@demo.test')).toBeInTheDocument();
    expect(first.getByTestId('cron-enabled')).toHaveTextContent('Activada');
    expect(first.getByTestId('cron-outcome')).toHaveTextContent('Fallida · código 2');

    const second = within(rowOf(ping));
    expect(second.getByTestId('cron-kind')).toHaveTextContent('URL');
    expect(second.getByTestId('cron-enabled')).toHaveTextContent('Desactivada');
    // a disabled task has no next run to show
    expect(second.queryByTestId('cron-next-run')).toBeNull();
    expect(second.getByText('Todavía no se ha ejecutado')).toBeInTheDocument();

    const hint = screen.getByTestId('cron-hint');
    expect(hint).toHaveTextContent('2 de 10 tareas del plan');
    expect(hint).toHaveTextContent('zona horaria Europe/Madrid');
    expect(hint).toHaveTextContent('una vez cada 5 minutos');
  });

  it('gives writers every action, each named after its task', async () => {
    stubApi(() => envelope(listData([cleanup])));
    renderView('write');
    await screen.findByText('A las 03:15, todos los días');
    const row = within(rowOf(cleanup));
    for (const name of [
      'Ejecuciones de cron/cleanup.php',
      'Ejecutar cron/cleanup.php ahora',
      'Editar cron/cleanup.php',
      'Eliminar cron/cleanup.php',
    ]) {
      expect(row.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.getByTestId('cron-create')).toBeEnabled();
  });

  it('shows readers the tasks and their runs, and nothing that changes them', async () => {
    stubApi(() => envelope(listData([cleanup])));
    renderView('read');
    await screen.findByText('A las 03:15, todos los días');
    const row = within(rowOf(cleanup));
    expect(row.getByTestId('cron-runs')).toBeInTheDocument();
    for (const id of ['cron-run', 'cron-edit', 'cron-delete']) expect(row.queryByTestId(id)).toBeNull();
    expect(screen.queryByTestId('cron-create')).toBeNull();
  });

  it('says there are no tasks yet', async () => {
    stubApi(() => envelope(listData([])));
    renderView();
    expect(await screen.findByText('Todavía no hay tareas programadas')).toBeInTheDocument();
  });

  it('keeps New task from a full plan, and says why', async () => {
    stubApi(() => envelope(listData([cleanup, ping], 2)));
    renderView();
    await screen.findByTestId('cron-limit-hint');
    const create = screen.getByTestId('cron-create');
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription('Has llegado al límite de 2 tareas de tu plan.');
  });

  it('never keeps New task from a plan without a limit', async () => {
    stubApi(() => envelope(listData([cleanup, ping], null)));
    renderView();
    expect(await screen.findByText('2 tareas (el plan no tiene límite)')).toBeInTheDocument();
    expect(screen.getByTestId('cron-create')).toBeEnabled();
    expect(screen.queryByTestId('cron-limit-hint')).toBeNull();
  });

  it('shows the skeleton only once the list has been loading for 400 ms', async () => {
    vi.useFakeTimers();
    const held = heldResponse();
    stubApi(() => held.promise);
    renderView();
    await act(() => vi.advanceTimersByTimeAsync(399));
    expect(screen.queryByTestId('cron-skeleton')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(2));
    expect(screen.getByTestId('cron-skeleton')).toHaveAttribute('role', 'status');
    held.release(envelope(listData([])));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.queryByTestId('cron-skeleton')).toBeNull();
  });

  it('shows the not-found view for a service the server does not know', async () => {
    stubApi(() => envelope(null, { status: 404, errors: ['Recurso no encontrado'] }));
    renderView();
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });

  it('runs a task now and reads the list again', async () => {
    const calls = stubApi((call) =>
      call.path === 'service/4/cron/7/run/'
        ? envelope({}, { info: ['Tarea en marcha'] })
        : envelope(listData([cleanup])),
    );
    renderView();
    await screen.findByText('A las 03:15, todos los días');
    fireEvent.click(within(rowOf(cleanup)).getByTestId('cron-run'));
    await waitFor(() => expect(calls.filter((call) => call.path === 'service/4/cron/list/').length).toBe(2));
    expect(calls.find((call) => call.path === 'service/4/cron/7/run/')?.method).toBe('POST');
  });

  it('deletes a task once confirmed, and shows the tasks the server answers with', async () => {
    const calls = stubApi((call) =>
      call.path === 'service/4/cron/8/delete/'
        ? envelope({ tasks: [cleanup] }, { info: ['Tarea eliminada'] })
        : envelope(listData([cleanup, ping])),
    );
    renderView();
    await screen.findByText('Cada 5 minutos');
    fireEvent.click(within(rowOf(ping)).getByTestId('cron-delete'));
    expect(await screen.findByText(/¿Eliminar la tarea que ejecuta https:\/\/demo.test\/ping\?/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('cron-delete-modal-confirm'));
    await waitFor(() => expect(screen.queryByText('Cada 5 minutos')).toBeNull());
    expect(calls.find((call) => call.path === 'service/4/cron/8/delete/')?.method).toBe('POST');
    expect(calls.filter((call) => call.path === 'service/4/cron/list/')).toHaveLength(1);
  });
});
