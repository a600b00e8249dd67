import type { MailAuthData, MailAuthRecord } from '@panel247/contract/mail-auth';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import { envelope, renderWithProviders, stubApi } from '../../../test/api-stub';
import { MailAuthCard } from './mail-auth-card';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => vi.unstubAllGlobals());

const set = {
  id: 5,
  reference: 'demo.test',
  referencePunycode: 'demo.test',
  hasService: true,
  hasMail: true,
  permissions: { servicemail: 'write', service_dnszone: 'write' },
} as unknown as PermissionSetData;

const record = (zona: string, value: string, extra: Partial<MailAuthRecord> = {}): MailAuthRecord => ({
  zona,
  name: zona ? `${zona}.demo.test` : 'demo.test',
  type: 'TXT',
  value,
  published: true,
  lookup: 'found',
  ...extra,
});

function data(spf: Partial<MailAuthRecord>, dmarc: Partial<MailAuthRecord>): MailAuthData {
  return {
    domain: 'demo.test',
    hosted: true,
    dkim: { keys: [], rotation: 'idle' },
    spf: { includes: [], record: record('', 'v=spf1 mx a ~all', spf) },
    dmarc: { policy: 'none', pct: 100, rua: [], record: record('_dmarc', 'v=DMARC1; p=none', dmarc) },
  };
}

describe('mail authentication card', () => {
  it('says in words what receivers would find broken in what the name servers answer', async () => {
    stubApi(() => envelope(data({ problem: 'lookups', lookups: 13 }, { problem: 'two_records' })));
    renderWithProviders(<MailAuthCard set={set} />);
    expect(await screen.findByTestId('mail-auth-spf-problem')).toHaveTextContent(
      'The SPF check needs 13 DNS lookups with its includes; receivers allow 10',
    );
    expect(screen.getByTestId('mail-auth-dmarc-problem')).toHaveTextContent(
      'The name servers answer with two or more DMARC records: receivers ignore DMARC.',
    );
  });

  it('shows no problem when the answer is sound', async () => {
    stubApi(() => envelope(data({}, {})));
    renderWithProviders(<MailAuthCard set={set} />);
    await screen.findByTestId('mail-auth-spf');
    expect(screen.queryByTestId('mail-auth-spf-problem')).toBeNull();
    expect(screen.queryByTestId('mail-auth-dmarc-problem')).toBeNull();
  });
});
