import { API } from '@panel247/contract/routes';
import type { RecoveryCodesData, TwoFactorEnableParams } from '@panel247/contract/two-factor';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { TWO_FACTOR_KEY } from './two-factor-status';

/** The app's first code turns the factor on; the answer carries the recovery codes, shown once. */
export async function enableTwoFactor(input: TwoFactorEnableParams) {
  return apiCall<RecoveryCodesData>(API.twoFactorEnable, input, { method: 'POST' });
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY }),
  });
}
