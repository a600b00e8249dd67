import { API } from '@panel247/contract/routes';
import type { TwoFactorStatusData } from '@panel247/contract/two-factor';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const TWO_FACTOR_KEY = ['user', 'twofactor'] as const;

export function getTwoFactorStatus(signal?: AbortSignal): Promise<TwoFactorStatusData> {
  return api<TwoFactorStatusData>(API.twoFactorStatus, undefined, { method: 'GET', signal });
}

export function useTwoFactorStatus() {
  return useQuery({ queryKey: TWO_FACTOR_KEY, queryFn: ({ signal }) => getTwoFactorStatus(signal) });
}
