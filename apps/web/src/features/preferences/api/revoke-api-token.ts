import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API_TOKENS_KEY } from './list-api-tokens';

/** Revokes a token: the next call made with it is refused, on every instance. */
export function revokeApiToken(input: { id: number }) {
  return apiCall<EmptyData>(API.apiTokenRevoke(input.id), undefined, { method: 'POST' });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY }),
  });
}
