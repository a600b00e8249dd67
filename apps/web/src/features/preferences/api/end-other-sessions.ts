import { API } from '@panel247/contract/routes';
import type { SessionsEndedData } from '@panel247/contract/sessions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { SESSIONS_KEY } from './list-sessions';

/** Ends every session of the user but this one. */
export function endOtherSessions() {
  return apiCall<SessionsEndedData>(API.userSessionsEndOthers, undefined, { method: 'POST' });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
