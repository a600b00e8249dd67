import type { InvitationCheckData } from '@panel247/contract/account-users';
import { USERS_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** What an invitation's link is for (user, domain, until when); an unknown, used or expired one fails. */
export function checkInvitation(token: string, signal?: AbortSignal): Promise<InvitationCheckData> {
  // no session here: a 101 would only mean there is none
  return api<InvitationCheckData>(
    USERS_API.invitationCheck,
    { token },
    { method: 'POST', signal, ignoreSessionLost: true },
  );
}

export function useInvitationCheck(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => checkInvitation(token, signal),
    enabled: token !== '',
    // the answer is final for this page: a refused link does not heal by asking again
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
