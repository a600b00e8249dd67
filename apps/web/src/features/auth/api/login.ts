import { API } from '@panel247/contract/routes';
import type { LoginData, LoginParams } from '@panel247/contract/user';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type LoginInput = Omit<LoginParams, 'recaptcha_response'> & { recaptcha_response: string };

export function login(input: LoginInput): Promise<LoginData> {
  return api<LoginData>(API.userLogin, input, { method: 'POST', ignoreSessionLost: true });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
