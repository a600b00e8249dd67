import type { InvitationAcceptData, InvitationAcceptParams } from '@panel247/contract/account-users';
import { USERS_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** Sets the invited user's password; the link is spent. */
export async function acceptInvitation(input: InvitationAcceptParams) {
  const { data, system } = await apiCall<InvitationAcceptData>(
    USERS_API.invitationAccept,
    { token: input.token, password: input.password },
    { method: 'POST', ignoreSessionLost: true },
  );
  return { ...data, info: system.info };
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}
