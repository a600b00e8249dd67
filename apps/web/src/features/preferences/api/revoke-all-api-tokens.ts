import type { ApiTokensRevokedData } from '@panel247/contract/api-tokens';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API_TOKENS_KEY } from './list-api-tokens';
import { reauthFactor } from './passkey-reauth';

export interface RevokeAllApiTokensInput {
  password: string;
  /** With TOTP on: a current code (or a recovery code). */
  code?: string;
  /** Confirm with one of the user's passkeys instead (the browser asks for it). */
  withPasskey?: boolean;
}

/** Revokes every token of the user at once, after the same re-authentication as creating one. */
export async function revokeAllApiTokens({ password, ...choice }: RevokeAllApiTokensInput) {
  const factor = await reauthFactor(choice);
  return apiCall<ApiTokensRevokedData>(API.apiTokensRevokeAll, { password, ...factor }, { method: 'POST' });
}

export function useRevokeAllApiTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAllApiTokens,
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY }),
  });
}
