import type { DnssecEntry, Domain, GlueRecord } from '@panel247/contract/domain';
import type { PermissionMap } from '@panel247/contract/permissions';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, heldResponse, renderWithProviders, type StubCall, stubApi } from '../../../test/api-stub';

const notifyErrorText = vi.fn();
vi.mock('../../../lib/notify', async (original) => ({
  ...(await original<typeof import('../../../lib/notify')>()),
  notifyErrorText: (key: string) => notifyErrorText(key),
}));
const { ActionsCard } = await import('./actions-card');
const { GlueListModal } = await import('./glue-list-modal');
const { DnssecCreateModal } = await import('./dnssec-create-modal');

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
  // Mantine's autosizing Textarea listens for web fonts, which jsdom does not have.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });
  }
});
afterEach(() => {
  vi.unstubAllGlobals();
  notifyErrorText.mockClear();
});

const domain: Domain = {
  id: 1,
  name: 'demo.test',
  dns: { mode: 'defaultDNS', servers: [] },
  status: 'active',
  expireTS: 0,
  ts: 0,
  blocked: false,
  transferBlock: false,
  whoisPrivacy: false,
  authType: 'authcode',
  dnssecType: 'digest',
};
const write = { domain_others: 'write', domain_transferblock: 'write', domain_authcode: 'read' } as PermissionMap;
const glue: GlueRecord[] = [{ id: 7, name: 'ns1.demo.test', ip: '192.0.2.53', ipv6: '' }];

describe('domain toggles', () => {
  it('are disabled while their own call runs, then follow the answer', async () => {
    const held = heldResponse();
    const calls = stubApi(() => held.promise);
    renderWithProviders(<ActionsCard id={1} domain={domain} permissions={write} />);
    const block = screen.getByRole('switch', { name: 'Bloqueo de modificación' });
    const whois = screen.getByRole('switch', { name: 'Privacidad whois' });
    fireEvent.click(block);
    await waitFor(() => expect(block).toBeDisabled());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST domain/1/toggle/block/']);
    // a second click while it runs sends nothing; the other toggles stay usable
    fireEvent.click(block);
    expect(calls).toHaveLength(1);
    expect(whois).toBeEnabled();
    await act(async () => held.release(envelope({ domain: { ...domain, blocked: true } }, { info: ['ok'] })));
    await waitFor(() => expect(block).toBeEnabled());
  });

  it('are read-only status icons without the action right', () => {
    stubApi(() => envelope({}));
    renderWithProviders(
      <ActionsCard
        id={1}
        domain={{ ...domain, blocked: true }}
        permissions={{ domain_others: 'read', domain_transferblock: 'read' } as PermissionMap}
      />,
    );
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.getByRole('img', { name: 'Bloqueo de modificación: Activado' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Bloqueo de transferencia: Desactivado' })).toBeInTheDocument();
  });
});

describe('glue delete dialog', () => {
  function openList(deleteAnswer: () => Promise<Response> | Response) {
    const calls = stubApi((call: StubCall) =>
      call.path.endsWith('/delete/') ? deleteAnswer() : envelope({ gluerecords: glue }),
    );
    const onClose = vi.fn();
    const view = renderWithProviders(<GlueListModal id={1} domainName="demo.test" opened allowed onClose={onClose} />);
    return { calls, onClose, ...view };
  }

  async function confirmDelete() {
    fireEvent.click(await screen.findByTestId('glue-delete'));
    const dialog = await screen.findByTestId('glue-delete-modal');
    fireEvent.click(within(dialog).getByTestId('glue-delete-modal-confirm'));
    return dialog;
  }

  it('locks while the delete runs (no close button, Escape and cancel do nothing), then closes and reloads', async () => {
    const held = heldResponse();
    const { calls } = openList(() => held.promise);
    const dialog = await confirmDelete();
    await waitFor(() => expect(dialog).toHaveAttribute('data-busy', 'true'));
    expect(screen.queryByRole('button', { name: 'Cerrar' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeDisabled();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.getByTestId('glue-delete-modal')).toHaveAttribute('data-busy', 'true');
    const listsBefore = calls.filter((c) => c.path.endsWith('/list/')).length;
    await act(async () => held.release(envelope({ gluerecords: [] }, { info: ['Registro glue eliminado'] })));
    await waitFor(() => expect(screen.queryByTestId('glue-delete-modal-confirm')).toBeNull());
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/list/')).length).toBe(listsBefore + 1));
  });

  it('also closes and reloads the list when the delete fails', async () => {
    const { calls, onClose } = openList(() => envelope(null, { status: 500 }));
    await confirmDelete();
    await waitFor(() => expect(screen.queryByTestId('glue-delete-modal-confirm')).toBeNull());
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/list/')).length).toBe(2));
    expect(onClose).not.toHaveBeenCalled();
  });

  it("a revoked right (403 on the delete) closes the dialogs with 'main.no_permission'", async () => {
    const { onClose, client } = openList(() =>
      envelope(null, { status: 403, errors: ['No tienes permiso para realizar esta acción'] }),
    );
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    await confirmDelete();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['permissions'] });
  });

  it("a right withdrawn while it is open (permissions reloaded) closes it with 'main.no_permission'", async () => {
    stubApi(() => envelope({ gluerecords: glue }));
    const onClose = vi.fn();
    const { rerender } = renderWithProviders(
      <GlueListModal id={1} domainName="demo.test" opened allowed onClose={onClose} />,
    );
    await screen.findByTestId('glue-row');
    expect(onClose).not.toHaveBeenCalled();
    rerender(<GlueListModal id={1} domainName="demo.test" opened allowed={false} onClose={onClose} />);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(notifyErrorText).toHaveBeenCalledWith('main.no_permission');
  });
});

describe('DNSSEC one-click import', () => {
  const init = { type: 'digest', algorithms: {}, digestTypes: {}, flags: {}, protocols: {} };
  const imported: DnssecEntry[] = [{ id: 9, keytag: 31337, algorithm: 13, digesttype: 2, digest: 'ab'.repeat(32) }];

  it('adds the hosted zone’s DS records with one button and shows them', async () => {
    const calls = stubApi((call) =>
      call.path.endsWith('/fromzone/')
        ? envelope({ dnssec: imported }, { info: ['Registro DNSSEC añadido'] })
        : envelope({ ...init, zoneKeysAvailable: true }),
    );
    renderWithProviders(<DnssecCreateModal id={1} opened allowed onClose={vi.fn()} />);
    fireEvent.click(await screen.findByTestId('dnssec-from-zone'));
    const created = await screen.findByTestId('dnssec-created');
    expect(within(created).getByTestId('dnssec-created-keytag')).toHaveTextContent('31337');
    expect(within(created).getByTestId('dnssec-created-digest')).toHaveTextContent('ab'.repeat(32));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET domain/1/dnssec/createinit/',
      'POST domain/1/dnssec/fromzone/',
    ]);
  });

  it('is not offered when the zone’s keys are not available', async () => {
    stubApi(() => envelope({ ...init, zoneKeysAvailable: false }));
    renderWithProviders(<DnssecCreateModal id={1} opened allowed onClose={vi.fn()} />);
    await screen.findByTestId('dnssec-form');
    expect(screen.queryByTestId('dnssec-from-zone')).toBeNull();
  });
});
