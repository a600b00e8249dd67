import type { PermissionSetData } from '@panel247/contract/permissions';
import { act, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api-client';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { WebApplyingAlert } from './web-applying-alert';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});

const set = {
  id: 4,
  reference: 'web.test',
  permissions: { service: 'write' },
} as unknown as PermissionSetData;

const service = (applying: unknown) => envelope({ service: { id: 4, parkingActive: false, applying } });

describe('web changes being applied', () => {
  it('shows why the web server has not taken them, and applies them on "try again"', async () => {
    let applying: unknown = { state: 'failing', since: 1_790_000_000, reason: 'refused' };
    const calls = stubApi((call) => {
      if (call.path === 'service/4/web/apply/') {
        applying = null;
        return envelope({}, { info: ['Todos los cambios del servicio están aplicados en el servidor web'] });
      }
      return service(applying);
    });
    renderWithProviders(<WebApplyingAlert set={set} />);
    const alert = await screen.findByTestId('web-applying');
    expect(alert).toHaveAttribute('role', 'status');
    expect(alert).toHaveTextContent('Aún no están en el servidor web');
    expect(alert).toHaveTextContent('El servidor web ha rechazado la nueva configuración');
    await act(async () => screen.getByRole('button', { name: 'Reintentar ahora' }).click());
    expect(calls.find((call) => call.path === 'service/4/web/apply/')).toMatchObject({ method: 'POST' });
    await vi.waitFor(() => expect(screen.queryByTestId('web-applying')).toBeNull());
  });

  it('appears when a change answers that it is being applied, without a "try again" for a reader', async () => {
    let applying: unknown = null;
    let reads = 0;
    stubApi((call) => {
      if (call.path === 'service/4/subdomain/create/') {
        applying = { state: 'pending', since: 1_790_000_000, reason: null };
        return envelope({}, { job: { id: `${'0'.repeat(31)}1`, status: 'queued', progress: 0 } });
      }
      reads += 1;
      return service(applying);
    });
    const reader = { ...set, permissions: { service: 'read' } } as unknown as PermissionSetData;
    renderWithProviders(<WebApplyingAlert set={reader} />);
    // the service has been read once: nothing waits
    await vi.waitFor(() => expect(reads).toBe(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByTestId('web-applying')).toBeNull();
    await act(async () => void (await api('service/4/subdomain/create/', { subDomain: 'x' })));
    expect(await screen.findByTestId('web-applying')).toHaveTextContent('Aplicándose');
    expect(screen.queryByTestId('web-applying-retry')).toBeNull();
  });
});
