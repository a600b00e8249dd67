import type { EmptyData } from '@panel247/contract/envelope';
import { API } from '@panel247/contract/routes';
import type { SessionEndParams } from '@panel247/contract/sessions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { SESSIONS_KEY } from './list-sessions';

/** Ends one of the user's other sessions: its open pages get the session-loss modal. */
export function endSession(input: SessionEndParams) {
  return apiCall<EmptyData>(API.userSessionEnd(input.id), undefined, { method: 'POST' });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    // An id that is already gone is refreshed away too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
