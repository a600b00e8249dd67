import { API } from '@panel247/contract/routes';
import type { TwoFactorSetupData } from '@panel247/contract/two-factor';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** A new secret (QR code and text) waiting for its first code. */
export function startTwoFactorSetup(): Promise<TwoFactorSetupData> {
  return api<TwoFactorSetupData>(API.twoFactorSetup, {}, { method: 'POST' });
}

export function useTwoFactorSetup() {
  return useMutation({ mutationFn: startTwoFactorSetup });
}
