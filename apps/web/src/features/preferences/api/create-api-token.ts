import type { ApiTokenCreatedData, ApiTokenLevel } from '@panel247/contract/api-tokens';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API_TOKENS_KEY } from './list-api-tokens';
import { reauthFactor } from './passkey-reauth';

export interface CreateApiTokenInput {
  name: string;
  expiresInDays: number;
  /** The chosen resources, each with its own level. */
  scope: { resourceId: number; level: ApiTokenLevel }[];
  password: string;
  /** Only when the user has two-factor authentication on. */
  code?: string;
  /** Confirm with one of the user's passkeys instead of a code (the browser asks for it). */
  withPasskey?: boolean;
}

/**
 * A new token (its secret is in the answer, once); needs the password and, with a second factor,
 * a code or a passkey's signature over the server's re-authentication challenge.
 */
export async function createApiToken({ scope, code, withPasskey, ...rest }: CreateApiTokenInput) {
  const factor = await reauthFactor({ code, withPasskey });
  return apiCall<ApiTokenCreatedData>(
    API.apiTokenCreate,
    { ...rest, scope: scope.map((entry) => `${entry.resourceId}:${entry.level}`), ...factor },
    { method: 'POST' },
  );
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY }),
  });
}
