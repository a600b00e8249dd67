import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import type { TwoFactorReauthParams } from '@panel247/contract/two-factor';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { TWO_FACTOR_KEY } from './two-factor-status';

/** Needs the password and a current code. */
export async function disableTwoFactor(input: TwoFactorReauthParams) {
  return apiCall<EmptyData>(API.twoFactorDisable, input, { method: 'POST' });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY }),
  });
}
