import type { CronListData, CronTask } from '@panel247/contract/cron';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, type StubCall, stubApi } from '../../../test/api-stub';
import { cronListQueryKey } from '../api/list-cron-tasks';
import { PREVIEW_DEBOUNCE_MS } from '../api/preview-cron-schedule';
import { buildCronTask } from '../lib/cron-fixtures';
import { CronTaskModal } from './cron-task-modal';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const task = buildCronTask();

/** The server's reading of each schedule the preview is asked for. */
const READINGS: Record<string, string> = {
  '0 3 * * *': 'A las 03:00, todos los días',
  '15 3 * * *': 'A las 03:15, todos los días',
  '0 * * * *': 'Al minuto 0 de cada hora',
};

function previewAnswer(call: StubCall): Response | undefined {
  if (call.path !== 'service/4/cron/preview/') return undefined;
  const schedule = call.params.get('schedule') ?? '';
  const description = READINGS[schedule];
  if (!description) {
    return envelope(null, { status: 400, errors: ['El campo de la hora no es válido'], inputs: ['schedule'] });
  }
  return envelope({ description, nextRuns: [1_800_000_000, 1_800_086_400] });
}

function renderModal({ edit = null as CronTask | null, allowed = true, minIntervalMinutes = 1 } = {}) {
  const onClose = vi.fn();
  const view = renderWithProviders(
    <CronTaskModal
      task={edit ?? 'new'}
      onClose={onClose}
      serviceId={4}
      domain="demo.test"
      minIntervalMinutes={minIntervalMinutes}
      allowed={allowed}
    />,
  );
  const list: CronListData = { tasks: [], limits: { maxTasks: 10, minIntervalMinutes }, timezone: 'Europe/Madrid' };
  view.client.setQueryData(cronListQueryKey(4, 'es'), list);
  return { onClose, client: view.client };
}

const scheduleInput = () => screen.getByTestId('cron-schedule-input');

describe('scheduled task dialog', () => {
  it('reads the schedule in words with its next runs, and again once typing pauses', async () => {
    vi.useFakeTimers();
    const calls = stubApi((call) => previewAnswer(call) ?? envelope(null, { status: 404 }));
    renderModal();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByTestId('cron-preview-description')).toHaveTextContent('A las 03:00, todos los días');
    expect(screen.getByTestId('cron-preview-runs').querySelectorAll('li')).toHaveLength(2);
    expect(calls[0]).toMatchObject({ path: 'service/4/cron/preview/', method: 'POST' });

    fireEvent.change(scheduleInput(), { target: { value: '0 * * *' } });
    fireEvent.change(scheduleInput(), { target: { value: '0 * * * *' } });
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS - 50));
    // still typing: nothing asked yet, the last reading stays
    expect(calls).toHaveLength(1);
    // the pause, then the answer
    await act(() => vi.advanceTimersByTimeAsync(60));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByTestId('cron-preview-description')).toHaveTextContent('Al minuto 0 de cada hora');
    // only the schedule typed last was asked for
    expect(calls.map((call) => call.params.get('schedule'))).toEqual(['0 3 * * *', '0 * * * *']);
  });

  it('shows what is wrong with a typed schedule under its field', async () => {
    vi.useFakeTimers();
    stubApi((call) => previewAnswer(call) ?? envelope(null, { status: 404 }));
    renderModal();
    fireEvent.change(scheduleInput(), { target: { value: '0 25 * * *' } });
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS + 10));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(scheduleInput()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('El campo de la hora no es válido')).toBeInTheDocument();
    expect(screen.queryByTestId('cron-preview-description')).toBeNull();
  });

  it('fills the schedule from a preset, and offers none more frequent than the plan allows', async () => {
    stubApi((call) => previewAnswer(call) ?? envelope(null, { status: 404 }));
    renderModal({ minIntervalMinutes: 15 });
    expect(screen.queryByTestId('cron-preset-every_5_minutes')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cada hora' }));
    expect(scheduleInput()).toHaveValue('0 * * * *');
    expect(screen.getByRole('button', { name: 'Cada hora' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('puts the server’s field errors on their fields and keeps the dialog open with what was typed', async () => {
    const calls = stubApi(
      (call) =>
        previewAnswer(call) ??
        envelope(null, {
          status: 400,
          errors: ['Ese archivo no existe en la carpeta de inicio', 'Escribe una dirección de correo válida'],
          inputs: ['target', 'email'],
        }),
    );
    const { onClose } = renderModal();
    fireEvent.change(screen.getByTestId('cron-target-input'), { target: { value: 'cron/missing.php' } });
    fireEvent.change(screen.getByTestId('cron-email-input'), { target: { value: 'ana@' } });
    fireEvent.click(screen.getByTestId('cron-submit'));
    await waitFor(() => expect(screen.getByTestId('cron-target-input')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Ese archivo no existe en la carpeta de inicio')).toBeInTheDocument();
    expect(screen.getByTestId('cron-email-input')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Escribe una dirección de correo válida')).toBeInTheDocument();
    expect(screen.getByTestId('cron-target-input')).toHaveValue('cron/missing.php');
    expect(onClose).not.toHaveBeenCalled();
    expect(calls.find((call) => call.path === 'service/4/cron/create/')?.method).toBe('POST');
  });

  it('creates the task, closes, and shows the tasks the server answers with', async () => {
    const created = { ...task, id: 9, target: 'cron/new.php', schedule: '0 * * * *' };
    const calls = stubApi(
      (call) => previewAnswer(call) ?? envelope({ tasks: [created] }, { info: ['Tarea programada creada'] }),
    );
    const { onClose, client } = renderModal();
    fireEvent.click(screen.getByTestId('cron-kind-input').querySelector('input[value="url"]') as HTMLElement);
    expect(screen.getByTestId('cron-target-input')).toHaveAttribute('placeholder', 'https://demo.test/cron.php');
    fireEvent.click(screen.getByTestId('cron-kind-input').querySelector('input[value="php"]') as HTMLElement);
    fireEvent.change(screen.getByTestId('cron-target-input'), { target: { value: ' cron/new.php ' } });
    fireEvent.change(scheduleInput(), { target: { value: '0  *  * * *' } });
    fireEvent.change(screen.getByTestId('cron-email-input'), { target: { value: 'ana@demo.test' } });
    fireEvent.click(screen.getByTestId('cron-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const create = calls.find((call) => call.path === 'service/4/cron/create/');
    expect(Object.fromEntries(create?.params ?? [])).toEqual({
      kind: 'php',
      target: 'cron/new.php',
      schedule: '0 * * * *',
      email: 'ana@demo.test',
    });
    expect(client.getQueryData<CronListData>(cronListQueryKey(4, 'es'))?.tasks).toEqual([created]);
  });

  it('asks for a target before calling', async () => {
    const calls = stubApi((call) => previewAnswer(call) ?? envelope(null, { status: 404 }));
    renderModal();
    fireEvent.click(screen.getByTestId('cron-submit'));
    expect(await screen.findByText('Este campo es obligatorio')).toBeInTheDocument();
    expect(calls.some((call) => call.path === 'service/4/cron/create/')).toBe(false);
  });

  it('saves an existing task, switched off', async () => {
    const calls = stubApi((call) => previewAnswer(call) ?? envelope({ tasks: [{ ...task, enabled: false }] }));
    const { onClose } = renderModal({ edit: task });
    expect(screen.getByRole('dialog', { name: 'Editar tarea programada' })).toBeInTheDocument();
    expect(screen.getByTestId('cron-target-input')).toHaveValue('cron/cleanup.php');
    fireEvent.click(screen.getByTestId('cron-enabled-input'));
    fireEvent.click(screen.getByTestId('cron-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const save = calls.find((call) => call.path === 'service/4/cron/7/save/');
    expect(Object.fromEntries(save?.params ?? [])).toEqual({
      kind: 'php',
      target: 'cron/cleanup.php',
      schedule: '15 3 * * *',
      email: '',
      enabled: '0',
    });
  });

  it('closes at once without the cron right', () => {
    stubApi(() => envelope(null, { status: 404 }));
    const { onClose } = renderModal({ allowed: false });
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByTestId('cron-task-form')).toBeNull();
  });
});
