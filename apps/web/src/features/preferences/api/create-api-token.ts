import type { ApiTokenCreatedData, ApiTokenLevel } from '@panel247/contract/api-tokens';
import { API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API_TOKENS_KEY } from './list-api-tokens';

export interface CreateApiTokenInput {
  name: string;
  expiresInDays: number;
  /** The chosen resources, each with the same level. */
  resourceIds: number[];
  level: ApiTokenLevel;
  password: string;
  /** Only when the user has two-factor authentication on. */
  code?: string;
}

/** A new token (its secret is in the answer, once); needs the password and, with 2FA on, a code. */
export function createApiToken({ resourceIds, level, code, ...rest }: CreateApiTokenInput) {
  const scope = resourceIds.map((id) => `${id}:${level}`);
  return apiCall<ApiTokenCreatedData>(
    API.apiTokenCreate,
    { ...rest, scope, ...(code ? { code } : {}) },
    {
      method: 'POST',
    },
  );
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY }),
  });
}
