import { API } from '@panel247/contract/routes';
import type { RecoveryCodesData, TwoFactorReauthParams } from '@panel247/contract/two-factor';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { TWO_FACTOR_KEY } from './two-factor-status';

/** New recovery codes (the old ones stop working); needs the password and a current code. */
export async function regenerateRecoveryCodes(input: TwoFactorReauthParams) {
  return apiCall<RecoveryCodesData>(API.twoFactorRecoveryCodes, input, { method: 'POST' });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY }),
  });
}
