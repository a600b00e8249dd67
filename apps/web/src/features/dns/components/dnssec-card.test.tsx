import type { DnssecZoneData } from '@panel247/contract/dnssec';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { DnssecCard } from './dnssec-card';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => vi.unstubAllGlobals());

const DS = { keytag: 4711, algorithm: 13, digestType: 2, digest: 'ab'.repeat(32), atRegistry: true };
const state = (over: Partial<DnssecZoneData>): DnssecZoneData => ({
  state: 'unsigned',
  ds: [],
  writable: true,
  registry: true,
  job: null,
  ...over,
});

describe('DNSSEC card', () => {
  it('signs the zone publishing the DS by default, then shows the DS to copy and where it is', async () => {
    let signed = false;
    const calls = stubApi((call) => {
      if (call.path === 'service/3/dns/dnssec/sign/') {
        signed = true;
        return envelope(state({ state: 'signed', ds: [DS] }), { info: ['Zona firmada'] });
      }
      return envelope(signed ? state({ state: 'signed', ds: [DS] }) : state({}));
    });
    renderWithProviders(<DnssecCard serviceId={3} canWrite />);
    expect(await screen.findByTestId('dnssec-state')).toHaveTextContent('Sin firmar');
    expect(screen.getByTestId('dnssec-publish')).toBeChecked();
    fireEvent.click(screen.getByTestId('dnssec-sign'));
    await waitFor(() => expect(screen.getByTestId('dnssec-state')).toHaveTextContent('Firmada'));
    const signCall = calls.find((call) => call.path === 'service/3/dns/dnssec/sign/');
    expect(signCall).toMatchObject({ method: 'POST' });
    expect(signCall?.params.get('publish')).toBe('1');
    const list = screen.getByTestId('dnssec-ds');
    expect(list).toHaveTextContent('4711');
    expect(list).toHaveTextContent('En el registro');
    expect(within(list).getByRole('button', { name: 'Copiar el registro DS de la clave 4711' })).toBeInTheDocument();
    expect(screen.getByTestId('dnssec-unsign')).toBeInTheDocument();
  });

  it('without the registry right it signs only, and says who needs the DS', async () => {
    const calls = stubApi(() => envelope(state({ registry: false })));
    renderWithProviders(<DnssecCard serviceId={3} canWrite />);
    expect(await screen.findByText(/da el DS de abajo/)).toBeInTheDocument();
    expect(screen.queryByTestId('dnssec-publish')).toBeNull();
    fireEvent.click(screen.getByTestId('dnssec-sign'));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/sign/'))).toBe(true));
  });

  it('read-only: no buttons', async () => {
    stubApi(() => envelope(state({ state: 'signed', ds: [DS], writable: false })));
    renderWithProviders(<DnssecCard serviceId={3} canWrite={false} />);
    expect(await screen.findByTestId('dnssec-ds')).toBeInTheDocument();
    expect(screen.queryByTestId('dnssec-unsign')).toBeNull();
    expect(screen.queryByTestId('dnssec-sign')).toBeNull();
  });

  it('follows the unsigning: the steps done, the current one, and the wait', async () => {
    const now = Math.floor(Date.now() / 1000);
    const job = {
      id: 'a'.repeat(32),
      status: 'running' as const,
      step: 'waiting' as const,
      waitUntil: now + 1800,
      waitSeconds: 3600,
      error: '',
    };
    stubApi(() => envelope(state({ state: 'unsigning', ds: [{ ...DS, atRegistry: false }], job })));
    renderWithProviders(<DnssecCard serviceId={3} canWrite />);
    const progress = await screen.findByTestId('dnssec-progress');
    expect(screen.getByTestId('dnssec-state')).toHaveTextContent('Retirando la firma');
    const current = progress.querySelector('[data-current="true"]');
    expect(current?.getAttribute('data-step')).toBe('waiting');
    expect(within(progress).getByText(/Las claves se retiran después de/)).toBeInTheDocument();
    const bar = within(progress).getByRole('progressbar', { name: 'Tiempo esperado' });
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(40);
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeLessThan(60);
    expect(screen.queryByTestId('dnssec-unsign')).toBeNull();
  });

  it('asks before unsigning, then starts the job', async () => {
    const calls = stubApi((call) => {
      if (call.path === 'service/3/dns/dnssec/unsign/') {
        return envelope({
          job: { id: 'b'.repeat(32), status: 'running', step: 'removing_ds', waitUntil: 0, waitSeconds: 60, error: '' },
        });
      }
      return envelope(state({ state: 'signed', ds: [DS] }));
    });
    renderWithProviders(<DnssecCard serviceId={3} canWrite />);
    fireEvent.click(await screen.findByTestId('dnssec-unsign'));
    const modal = await screen.findByTestId('dnssec-unsign-modal');
    expect(modal).toHaveTextContent('Primero se retira el DS del registro');
    fireEvent.click(within(modal).getByRole('button', { name: 'Retirar la firma' }));
    await waitFor(() => expect(calls.some((call) => call.path === 'service/3/dns/dnssec/unsign/')).toBe(true));
  });

  it('shows why an unsigning stopped', async () => {
    const job = {
      id: 'c'.repeat(32),
      status: 'failed' as const,
      step: 'removing_keys' as const,
      waitUntil: 1,
      waitSeconds: 1,
      error: 'Ha vuelto a aparecer un DS',
    };
    stubApi(() => envelope(state({ state: 'signed', ds: [DS], job })));
    renderWithProviders(<DnssecCard serviceId={3} canWrite />);
    expect(await screen.findByTestId('dnssec-job-error')).toHaveTextContent('Ha vuelto a aparecer un DS');
  });
});
