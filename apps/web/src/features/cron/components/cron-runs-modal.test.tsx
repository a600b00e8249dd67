import type { CronRun } from '@panel247/contract/cron';
import { fireEvent, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { buildCronTask } from '../lib/cron-fixtures';
import { CronRunsModal } from './cron-runs-modal';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const task = buildCronTask();
const failed: CronRun = {
  id: 31,
  startedAt: 1_800_000_000,
  finishedAt: 1_800_000_065,
  exitCode: 255,
  outcome: 'failed',
  output: 'PHP Fatal error: <b>no</b> such table',
  trigger: 'manual',
};
const quiet: CronRun = {
  ...failed,
  id: 30,
  finishedAt: 1_800_000_002,
  exitCode: 0,
  outcome: 'ok',
  output: '',
  trigger: 'schedule',
};

function renderModal() {
  renderWithProviders(<CronRunsModal task={task} onClose={() => {}} serviceId={4} />);
}

describe('runs dialog', () => {
  it('lists the runs with when, how long, what started them and how they ended, each output on demand', async () => {
    const calls = stubApi(() => envelope({ runs: [failed, quiet] }));
    renderModal();
    expect(screen.getByRole('dialog', { name: 'Ejecuciones de cron/cleanup.php' })).toBeInTheDocument();
    const [first, second] = await screen.findAllByTestId('cron-run-item');
    expect(calls[0]).toMatchObject({ path: 'service/4/cron/7/runs/', method: 'GET' });

    const newest = within(first as HTMLElement);
    expect(newest.getByTestId('cron-outcome')).toHaveTextContent('Fallida · código 255');
    expect(newest.getByText('A mano')).toBeInTheDocument();
    expect(newest.getByTestId('cron-run-duration')).toHaveTextContent('Duración: 1 min 5 s');
    const toggle = newest.getByRole('button');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // the output is text, never markup
    expect(newest.getByTestId('cron-run-output').textContent).toBe(failed.output);

    const older = within(second as HTMLElement);
    expect(older.getByTestId('cron-outcome')).toHaveTextContent('Correcta · código 0');
    expect(older.getByText('Programada')).toBeInTheDocument();
    expect(older.getByText('La ejecución no mostró nada')).toBeInTheDocument();
  });

  it('says when the task has not run yet', async () => {
    stubApi(() => envelope({ runs: [] }));
    renderModal();
    expect(await screen.findByTestId('cron-runs-empty')).toHaveTextContent('Esta tarea todavía no se ha ejecutado');
  });
});
