import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import type { ForgotPasswordParams } from '@panel247/contract/user';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export type ForgotPasswordInput = Omit<ForgotPasswordParams, 'recaptcha_response'> & { recaptcha_response: string };

/** A message to the provider (never an automatic reset); answers with info[0]. */
export async function forgotPassword(input: ForgotPasswordInput) {
  return (await apiCall<EmptyData>(API.userForgotPassword, input, { method: 'POST', ignoreSessionLost: true })).system;
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
