import type { MailboxSpam, SpamData, SpamFiltered, SpamSender } from '@panel247/contract/mail-spam';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import es from '../../../locales/es.json';
import { envelope, renderWithProviders, type StubCall, stubApi } from '../../../test/api-stub';
import { emulateScreen } from '../../../test/screen-width';

vi.mock('../../../lib/use-page-title', () => ({ usePageTitle: () => {} }));
const { SpamView } = await import('./spam-view');
// the mailbox dialog loads when first opened: loaded here, not in the middle of a test
await import('./spam-mailbox-modal');

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
afterEach(() => vi.unstubAllGlobals());

function mailSet(level: 'read' | 'write'): PermissionSetData {
  return {
    id: 4,
    reference: 'demo.test',
    referencePunycode: 'demo.test',
    hasDomain: false,
    hasService: true,
    hasMail: true,
    domain: null,
    service: { expireTS: 0, isRedirAndParking: false },
    mail: null,
    dnszone: null,
    permissions: { servicemail: 'read', servicemail_spam: level },
  } as unknown as PermissionSetData;
}

const SOPORTE: MailboxSpam = { id: 11, user: 'soporte', mode: 'off', threshold: 6 };
const VENTAS: MailboxSpam = { id: 12, user: 'ventas', mode: 'tag', threshold: 8 };
const BLOCKED: SpamSender = { id: 21, list: 'block', sender: 'spam.example', createdAt: 1_790_000_000 };
const ALLOWED: SpamSender = { id: 22, list: 'allow', sender: 'ana@amigos.example', createdAt: 1_790_000_000 };
const SCORED: SpamFiltered = {
  user: 'ventas',
  folder: 'INBOX',
  received: 1_790_000_000,
  from: 'oferta@premios.example',
  subject: 'Has ganado',
  score: '9.5',
};
const FROM_BLOCKED: SpamFiltered = { ...SCORED, from: 'x@spam.example', subject: 'Otra', score: '', folder: 'Junk' };

function spamData(overrides: Partial<SpamData> = {}): SpamData {
  return {
    mailboxes: [SOPORTE, VENTAS],
    senders: [ALLOWED, BLOCKED],
    maxSenders: 10,
    filtered: [SCORED, FROM_BLOCKED],
    ...overrides,
  };
}

/** The page's read answers `data`; `other` answers the changes (undefined: an unexpected call). */
function stubSpam(data: SpamData, other: (call: StubCall) => Response | undefined = () => undefined) {
  return stubApi((call) => {
    if (call.path === 'service/4/mail/spam/') return envelope(data);
    const answer = other(call);
    if (!answer) throw new Error(`unexpected call ${call.path}`);
    return answer;
  });
}

function renderView(level: 'read' | 'write') {
  return renderWithProviders(
    <MemoryRouter>
      <SpamView set={mailSet(level)} />
    </MemoryRouter>,
  );
}

const rowOf = (testId: string, name: string) => {
  const row = screen.getByTestId(testId).querySelector<HTMLElement>(`[data-name="${name}"]`);
  if (!row) throw new Error(`no row ${name} in ${testId}`);
  return within(row);
};

describe('spam filter view', () => {
  it('shows readers every mailbox, list and filtered message, and nothing that changes them', async () => {
    const calls = stubSpam(spamData());
    renderView('read');
    await screen.findByText('soporte@demo.test');
    expect(calls[0]).toMatchObject({ path: 'service/4/mail/spam/', method: 'GET' });

    const soporte = rowOf('spam-mailboxes', 'soporte');
    expect(soporte.getByTestId('spam-mailbox-mode')).toHaveTextContent('Desactivado');
    // an unfiltered mailbox shows no threshold
    expect(soporte.queryByTestId('spam-mailbox-threshold')).toBeNull();
    const ventas = rowOf('spam-mailboxes', 'ventas');
    expect(ventas.getByTestId('spam-mailbox-mode')).toHaveTextContent('Solo marcar');
    expect(ventas.getByTestId('spam-mailbox-threshold')).toHaveTextContent('8');

    // the block list first
    const senders = Array.from(screen.getByTestId('spam-senders').querySelectorAll('[data-name]'));
    expect(senders.map((row) => row.getAttribute('data-name'))).toEqual(['spam.example', 'ana@amigos.example']);
    expect(rowOf('spam-senders', 'spam.example').getByTestId('spam-sender-list-badge')).toHaveTextContent('Bloqueados');
    expect(screen.getByTestId('spam-senders-intro')).toHaveTextContent('2 de 10 remitentes de tu plan.');

    const filtered = within(screen.getByTestId('spam-filtered'));
    expect(filtered.getByText('Has ganado')).toBeInTheDocument();
    expect(filtered.getByTestId('spam-filtered-score')).toHaveTextContent('9,5');
    expect(filtered.getByTestId('spam-filtered-blocked')).toHaveTextContent('Remitente bloqueado');
    expect(filtered.getByText('Bandeja de entrada')).toBeInTheDocument();
    expect(filtered.getAllByTestId('spam-filtered-received')[0]).toHaveAttribute(
      'dateTime',
      new Date(1_790_000_000_000).toISOString(),
    );

    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByTestId('spam-sender-form')).toBeNull();
    expect(screen.queryByTestId('spam-mailbox-edit')).toBeNull();
    expect(screen.queryByTestId('spam-sender-remove')).toBeNull();
  });

  it('saves a mailbox’s mode and threshold, and lists it as the server answers', async () => {
    const calls = stubSpam(spamData(), (call) =>
      call.path === 'service/4/correo/11/spam/save/'
        ? envelope({ mailbox: { ...SOPORTE, mode: 'junk', threshold: 5 } }, { info: ['Filtro de spam guardado'] })
        : undefined,
    );
    renderView('write');
    fireEvent.click(await screen.findByRole('button', { name: 'Cambiar el filtro de soporte@demo.test' }));
    const form = await screen.findByTestId('spam-mailbox-form');
    // off: the threshold waits until the filter is on
    expect(within(form).getByTestId('spam-threshold')).toBeDisabled();
    fireEvent.click(within(form).getByRole('radio', { name: 'Mover a Junk' }));
    const threshold = within(form).getByTestId('spam-threshold');
    expect(threshold).toBeEnabled();
    fireEvent.change(threshold, { target: { value: '5' } });
    await act(async () => fireEvent.click(within(form).getByTestId('spam-mailbox-submit')));
    await waitFor(() => expect(screen.queryByTestId('spam-mailbox-form')).toBeNull());
    const sent = calls.find((call) => call.path === 'service/4/correo/11/spam/save/') as StubCall;
    expect(sent.method).toBe('POST');
    expect(Object.fromEntries(sent.params)).toEqual({ mode: 'junk', threshold: '5' });
    const soporte = rowOf('spam-mailboxes', 'soporte');
    expect(soporte.getByTestId('spam-mailbox-mode')).toHaveTextContent('Mover a Junk');
    expect(soporte.getByTestId('spam-mailbox-threshold')).toHaveTextContent('5');
  });

  it('refuses a threshold out of range before any call', async () => {
    const calls = stubSpam(spamData());
    renderView('write');
    fireEvent.click(await screen.findByRole('button', { name: 'Cambiar el filtro de ventas@demo.test' }));
    const form = await screen.findByTestId('spam-mailbox-form');
    fireEvent.change(within(form).getByTestId('spam-threshold'), { target: { value: '40' } });
    fireEvent.click(within(form).getByTestId('spam-mailbox-submit'));
    expect(await within(form).findByText('Indica una puntuación de 1 a 15')).toBeInTheDocument();
    expect(calls.some((call) => call.path.endsWith('/spam/save/'))).toBe(false);
  });

  it('checks a sender with the contract’s rule before posting it', async () => {
    const calls = stubSpam(spamData());
    renderView('write');
    const input = await screen.findByTestId('spam-sender-input');
    fireEvent.change(input, { target: { value: 'no es un remitente' } });
    fireEvent.click(screen.getByTestId('spam-sender-add'));
    expect(
      await screen.findByText('Escribe una dirección (nombre@dominio.com) o un dominio (dominio.com)'),
    ).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.path.endsWith('/senders/add/'))).toBe(false);
  });

  it('shows the server’s refusal under the sender, and adds an accepted one to its list', async () => {
    const calls = stubSpam(spamData(), (call) => {
      if (call.path !== 'service/4/mail/spam/senders/add/') return undefined;
      return call.params.get('sender') === 'spam.example'
        ? envelope(null, { status: 400, errors: ['Ese remitente ya está en la lista'], inputs: ['sender'] })
        : envelope(
            { sender: { id: 30, list: 'allow', sender: 'banco.example', createdAt: 1_790_000_500 } },
            { info: ['Remitente añadido a la lista'] },
          );
    });
    renderView('write');
    const input = await screen.findByTestId('spam-sender-input');
    fireEvent.change(input, { target: { value: 'spam.example' } });
    await act(async () => fireEvent.click(screen.getByTestId('spam-sender-add')));
    const form = within(screen.getByTestId('spam-sender-form'));
    expect(await form.findByText('Ese remitente ya está en la lista')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(screen.getByTestId('spam-sender-list'), { target: { value: 'allow' } });
    fireEvent.change(input, { target: { value: 'Banco.example' } });
    await act(async () => fireEvent.click(screen.getByTestId('spam-sender-add')));
    await waitFor(() => expect(rowOf('spam-senders', 'banco.example').getByText('Permitidos')).toBeInTheDocument());
    const sent = calls.filter((call) => call.path === 'service/4/mail/spam/senders/add/').at(-1) as StubCall;
    expect(Object.fromEntries(sent.params)).toEqual({ list: 'allow', sender: 'Banco.example' });
    // ready for the next one, on the same list
    expect(input).toHaveValue('');
    expect(screen.getByTestId('spam-sender-list')).toHaveValue('allow');
  });

  it('stops adding at the plan’s limit and says why', async () => {
    stubSpam(spamData({ maxSenders: 2 }));
    renderView('write');
    expect(await screen.findByTestId('spam-senders-limit-hint')).toHaveTextContent(
      'Has llegado al límite de 2 remitentes de tu plan.',
    );
    const add = screen.getByTestId('spam-sender-add');
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription('Has llegado al límite de 2 remitentes de tu plan.');
    expect(screen.getByTestId('spam-sender-input')).toBeDisabled();
  });

  it('removes a sender once confirmed', async () => {
    const calls = stubSpam(spamData(), (call) =>
      call.path === 'service/4/mail/spam/senders/21/delete/'
        ? envelope({}, { info: ['Remitente quitado de la lista'] })
        : undefined,
    );
    renderView('write');
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar spam.example' }));
    const dialog = await screen.findByTestId('spam-sender-remove-modal');
    expect(dialog).toHaveTextContent('¿Quitar spam.example de la lista de bloqueados?');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Quitar' })));
    await waitFor(() =>
      expect(screen.getByTestId('spam-senders').querySelector('[data-name="spam.example"]')).toBeNull(),
    );
    expect(calls.filter((call) => call.path === 'service/4/mail/spam/senders/21/delete/')).toHaveLength(1);
  });

  it('says when nothing was filtered in the last days', async () => {
    stubSpam(spamData({ filtered: [] }));
    renderView('read');
    expect(await screen.findByText('No se ha filtrado nada en los últimos 7 días')).toBeInTheDocument();
    expect(screen.queryByTestId('spam-filtered-unknown')).toBeNull();
  });

  it('says when the mail server did not answer, rather than "nothing filtered"', async () => {
    stubSpam(spamData({ filtered: null }));
    renderView('read');
    expect(await screen.findByTestId('spam-filtered-unknown')).toHaveTextContent(
      'El servidor de correo no ha respondido',
    );
    expect(screen.queryByTestId('spam-filtered')).toBeNull();
  });

  it('shows the not-found view for a service the server does not know', async () => {
    stubApi(() => envelope(null, { status: 404, errors: ['Recurso no encontrado'] }));
    renderView('read');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });
});
