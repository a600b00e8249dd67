import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import type { ChangePasswordParams } from '@panel247/contract/user';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** On success the server ends the session; the answer's info[0] is the message to show. */
export async function changePassword(input: ChangePasswordParams) {
  return (await apiCall<EmptyData>(API.userChangePassword, input, { method: 'POST' })).system;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
