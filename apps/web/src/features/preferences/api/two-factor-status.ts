import { API } from '@panel247/contract/routes';
import type { TwoFactorStatusData } from '@panel247/contract/two-factor';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';

export const TWO_FACTOR_KEY = ['user', 'twofactor'] as const;

/** Whether the user signs in with a second step, and how many recovery codes are left: a card of the preferences' first screen. */
export function twoFactorStatusQuery() {
  return apiGetQuery<TwoFactorStatusData>(TWO_FACTOR_KEY, { path: API.twoFactorStatus });
}

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQuery());
}
