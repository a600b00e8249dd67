import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { renderWithProviders } from '../../../test/api-stub';
import { TransferOutNotice } from './transfer-out-notice';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});

const day = (iso: string) => Date.parse(iso) / 1000;

describe('a transfer away reported by the registry', () => {
  it('says who asked and when the registry acts while it waits', () => {
    renderWithProviders(
      <TransferOutNotice
        transfer={{
          state: 'pending',
          requestedBy: 'other-registrar',
          requestedAt: day('2026-12-01T12:00:00Z'),
          actionAt: day('2026-12-06T12:00:00Z'),
        }}
      />,
    );
    expect(screen.getByText('Transfer to another registrar under way')).toBeInTheDocument();
    const text = screen.getByTestId('transfer-out-notice').textContent ?? '';
    expect(text).toContain('other-registrar');
    expect(text).toContain('Dec 6, 2026');
  });

  it('says the domain is gone once the registry completed it', () => {
    renderWithProviders(
      <TransferOutNotice transfer={{ state: 'serverApproved', requestedBy: 'other', requestedAt: 0, actionAt: 0 }} />,
    );
    expect(screen.getByText('Domain transferred to another registrar')).toBeInTheDocument();
  });
});
