import { act, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { announceWorkChanged } from '../../../lib/work-events';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { FtpApplyingAlert } from './ftp-applying-alert';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});

const main = (applying: unknown) =>
  envelope({ ftp: { host: 'ftp.web.test', sslHost: 'ftp.web.test', port: 21, webftp: '/' }, applying });

describe('FTP changes being applied', () => {
  it('says why the FTP server has not taken them, and applies them on "try again"', async () => {
    let applying: unknown = { state: 'failing', since: 1_790_000_000, reason: 'users_file' };
    const calls = stubApi((call) => {
      if (call.path === 'service/4/ftp/apply/') applying = null;
      return main(applying);
    });
    renderWithProviders(<FtpApplyingAlert serviceId={4} canWrite />);
    const alert = await screen.findByTestId('ftp-applying');
    expect(alert).toHaveTextContent('Aún no están en el servidor FTP');
    expect(alert).toHaveTextContent('El servidor FTP no ha podido guardar su lista de cuentas');
    await act(async () => screen.getByRole('button', { name: 'Reintentar ahora' }).click());
    expect(calls.find((call) => call.path === 'service/4/ftp/apply/')).toMatchObject({ method: 'POST' });
    await vi.waitFor(() => expect(screen.queryByTestId('ftp-applying')).toBeNull());
  });

  it('goes when the realtime word says its changes landed; a reader gets no "try again"', async () => {
    let applying: unknown = { state: 'failing', since: 1_790_000_000, reason: null };
    stubApi(() => main(applying));
    renderWithProviders(<FtpApplyingAlert serviceId={4} canWrite={false} />);
    expect(await screen.findByTestId('ftp-applying')).toHaveTextContent('no ha podido aplicar');
    expect(screen.queryByTestId('ftp-applying-retry')).toBeNull();
    applying = null;
    // another service's word changes nothing; this one's reads the state again
    act(() => announceWorkChanged({ area: 'ftp', resourceId: 5 }));
    act(() => announceWorkChanged({ area: 'web', resourceId: 4 }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByTestId('ftp-applying')).toBeInTheDocument();
    act(() => announceWorkChanged({ area: 'ftp', resourceId: 4 }));
    await vi.waitFor(() => expect(screen.queryByTestId('ftp-applying')).toBeNull());
  });
});
