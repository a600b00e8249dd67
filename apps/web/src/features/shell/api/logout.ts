import { API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function logout(): Promise<unknown> {
  return api(API.userLogout, undefined, { method: 'POST', ignoreSessionLost: true });
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
