import type { PermissionSetData } from '@panel247/contract/permissions';
import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { permissionSetQueryKey } from '../../../api/permission-queries';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';

const notifyErrorText = vi.fn();
vi.mock('../../../lib/notify', async (original) => ({
  ...(await original<typeof import('../../../lib/notify')>()),
  notifyErrorText: (key: string) => notifyErrorText(key),
}));
const { DnsCreateModal } = await import('./dns-create-modal');

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  notifyErrorText.mockClear();
});

function permissionSet(level: 'read' | 'write'): PermissionSetData {
  return {
    id: 5,
    reference: 'demo.test',
    referencePunycode: 'demo.test',
    hasDomain: true,
    hasService: true,
    hasMail: false,
    domain: null,
    service: { expireTS: 0, isRedirAndParking: false },
    permissions: { service_dnszone: level },
  } as unknown as PermissionSetData;
}

function open(serverLevel: 'read' | 'write') {
  const calls = stubApi(() => envelope(permissionSet(serverLevel)));
  const onClose = vi.fn();
  const view = renderWithProviders(
    <DnsCreateModal opened onClose={onClose} serviceId={5} zoneName="demo.test" canWrite />,
  );
  return { calls, onClose, ...view };
}

describe('DNS create dialog', () => {
  it('asks the server for the service’s permissions when it opens, and stays open with the right', async () => {
    const { calls, onClose, client } = open('write');
    expect(screen.getByTestId('dns-create-form')).toBeInTheDocument();
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST permission/5/']));
    await waitFor(() =>
      expect(client.getQueryData<PermissionSetData>(permissionSetQueryKey(5))?.permissions.service_dnszone).toBe(
        'write',
      ),
    );
    expect(onClose).not.toHaveBeenCalled();
    expect(notifyErrorText).not.toHaveBeenCalled();
  });

  it("closes with 'main.no_permission' when the reloaded permissions lack the DNS-zone action", async () => {
    const { onClose } = open('read');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByTestId('dns-create-form')).toBeNull();
    expect(notifyErrorText).toHaveBeenCalledTimes(1);
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
  });

  it("closes at once with 'main.no_permission' when the cached permissions already lack it", () => {
    stubApi(() => envelope(permissionSet('read')));
    const onClose = vi.fn();
    renderWithProviders(
      <DnsCreateModal opened onClose={onClose} serviceId={5} zoneName="demo.test" canWrite={false} />,
    );
    expect(onClose).toHaveBeenCalled();
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
    expect(screen.queryByTestId('dns-create-form')).toBeNull();
  });
});
