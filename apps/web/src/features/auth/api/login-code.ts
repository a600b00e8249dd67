import { API } from '@panel247/contract/routes';
import type { LoginCodeParams } from '@panel247/contract/two-factor';
import type { LoginData } from '@panel247/contract/user';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The login's second step: the app's code or a recovery code, with the password step's token. */
export function loginCode(input: LoginCodeParams): Promise<LoginData> {
  return api<LoginData>(API.userLoginCode, input, { method: 'POST', ignoreSessionLost: true });
}

export function useLoginCode() {
  return useMutation({ mutationFn: loginCode });
}
