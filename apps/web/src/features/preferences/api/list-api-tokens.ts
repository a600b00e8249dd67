import type { ApiTokenListData } from '@panel247/contract/api-tokens';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';

export const API_TOKENS_KEY = ['user', 'apitokens'] as const;

/** The user's API tokens: a card of the preferences' first screen. */
export function apiTokensQuery() {
  return apiGetQuery<ApiTokenListData>(API_TOKENS_KEY, { path: API.apiTokens });
}

export function useApiTokens() {
  return useQuery(apiTokensQuery());
}
