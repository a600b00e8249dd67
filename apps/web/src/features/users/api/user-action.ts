import type { EmptyData } from '@panel247/contract/envelope';
import { USERS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { UserAction } from '../lib/user-state';
import { usersQueryKey } from './list-users';

/**
 * The calls on one user that take no parameters and answer with a message (disable, enable, reset
 * the second factor, end the sessions, remove, send or cancel the invitation): one table of
 * paths rather than seven files that differ only in theirs.
 */
const PATHS: Record<UserAction, (id: number) => string> = {
  invitationResend: USERS_API.invitationResend,
  invitationCancel: USERS_API.invitationCancel,
  enable: USERS_API.enable,
  disable: USERS_API.disable,
  resetTwoFactor: USERS_API.resetTwoFactor,
  endSessions: USERS_API.endSessions,
  remove: USERS_API.remove,
};

export interface UserActionInput {
  action: UserAction;
  id: number;
}

/** Returns the server's info messages (the first one is the toast). */
export async function runUserAction({ action, id }: UserActionInput): Promise<string[]> {
  return (await apiCall<EmptyData>(PATHS[action](id), undefined, { method: 'POST' })).system.info;
}

/** Every list and user page is asked for again: the state, the badges or the row itself changed. */
export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runUserAction,
    onSuccess: (_info, { action, id }) => {
      // a removed user's page is gone: asking for it again would only answer 404
      if (action === 'remove') queryClient.removeQueries({ queryKey: [...usersQueryKey, 'detail', id] });
      return queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
  });
}
