import type { ApiTokenListData } from '@panel247/contract/api-tokens';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const API_TOKENS_KEY = ['user', 'apitokens'] as const;

export function listApiTokens(signal?: AbortSignal): Promise<ApiTokenListData> {
  return api<ApiTokenListData>(API.apiTokens, undefined, { method: 'GET', signal });
}

export function useApiTokens() {
  return useQuery({ queryKey: API_TOKENS_KEY, queryFn: ({ signal }) => listApiTokens(signal) });
}
