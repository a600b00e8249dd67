import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { renderWithProviders } from '../../../test/api-stub';
import { ServicePlanCard } from './service-plan-card';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});

describe('the service’s plan', () => {
  it('shows each count against its limit, a full one marked, and none where the plan has no limit', () => {
    renderWithProviders(
      <ServicePlanCard
        plan={{
          name: 'small',
          sites: { used: 2, limit: 2 },
          mailboxes: { used: 1, limit: 5 },
          aliases: { used: 3, limit: null },
          ftpAccounts: { used: 0, limit: 1 },
          databases: { used: 1, limit: 1 },
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Plan: small' })).toBeTruthy();
    expect(screen.getByTestId('hosting-plan-sites').textContent).toBe('Sites2 of 2');
    expect(screen.getByTestId('hosting-plan-mailboxes').textContent).toBe('Mailboxes1 of 5');
    expect(screen.getByTestId('hosting-plan-aliases').textContent).toBe('Aliases3 (no limit)');
  });
});
