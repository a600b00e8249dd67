import { API } from '@panel247/contract/routes';
import type { SessionListData } from '@panel247/contract/sessions';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const SESSIONS_KEY = ['user', 'sessions'] as const;

export function listSessions(signal?: AbortSignal): Promise<SessionListData> {
  return api<SessionListData>(API.userSessions, undefined, { method: 'GET', signal });
}

export function useSessions() {
  return useQuery({ queryKey: SESSIONS_KEY, queryFn: ({ signal }) => listSessions(signal) });
}
