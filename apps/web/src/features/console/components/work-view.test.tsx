import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { emulateScreen } from '../../../test/screen-width';
import type { ConsoleJob, WorkData } from '../api/list-work';
import { WorkView } from './work-view';

const notify = vi.hoisted(() => ({ error: vi.fn(), errorText: vi.fn(), success: vi.fn() }));
vi.mock('../../../lib/notify', async (original) => ({
  ...(await original<typeof import('../../../lib/notify')>()),
  notifyError: notify.error,
  notifyErrorText: notify.errorText,
  notifySuccess: notify.success,
}));

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
  vi.clearAllMocks();
  restoreScreen();
});

const FAILED: ConsoleJob = {
  id: '0b7c5c1e-2a55-4c1f-9d7e-3f1a2b3c4d5e',
  kind: 'dns.publish',
  key: 'zone:example.com',
  state: 'failed',
  retries: 3,
  error: 'PowerDNS refused the zone',
  createdAt: 1_800_000_000,
  runAfter: 1_800_000_060,
};
const ACTIVE: ConsoleJob = { ...FAILED, id: '1b7c5c1e-2a55-4c1f-9d7e-3f1a2b3c4d5e', state: 'active', error: null };

describe('pending work', () => {
  it('lists the jobs and the waiting changes, and asks for the failed ones when told', async () => {
    const calls = stubApi((call) => {
      const data: WorkData = {
        jobs: call.params.get('state') === 'failed' ? [FAILED] : [FAILED, ACTIVE],
        changes: [{ area: 'dns', domain: 'example.com', pending: 2, since: 1_800_000_000, lastError: 'timeout' }],
      };
      return envelope(data);
    });
    renderWithProviders(<WorkView />);
    const jobs = await screen.findByTestId('console-jobs');
    await within(jobs).findByText('PowerDNS refused the zone');
    // a retry only where a job failed or waits for its retry
    expect(within(jobs).getAllByTestId('job-retry')).toHaveLength(1);
    const changes = screen.getByTestId('console-changes');
    expect(within(changes).getByText('Zona DNS')).toBeInTheDocument();
    expect(within(changes).getByText('timeout')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('radio', { name: 'Fallidas' }));
    await waitFor(() => expect(calls.at(-1)?.params.get('state')).toBe('failed'));
  });

  it('says so when the job is not failed any more, and reads the list again', async () => {
    let jobs = [FAILED];
    const calls = stubApi((call) => {
      if (call.path.endsWith('/retry/')) {
        jobs = [];
        return envelope(null, { status: 404, errors: ['404'] });
      }
      return envelope({ jobs, changes: [] } satisfies WorkData);
    });
    renderWithProviders(<WorkView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reintentar dns.publish' }));
    await waitFor(() => expect(notify.errorText).toHaveBeenCalledWith('console.work.gone'));
    expect(calls.find((call) => call.method === 'POST')?.path).toBe(`console/work/${FAILED.id}/retry/`);
    await screen.findByText('No hay tareas abiertas');
    expect(notify.success).not.toHaveBeenCalled();
  });
});
