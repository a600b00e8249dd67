import { API } from '@panel247/contract/routes';
import type { SessionListData } from '@panel247/contract/sessions';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';

export const SESSIONS_KEY = ['user', 'sessions'] as const;

/** The user's signed-in sessions: a card of the preferences' first screen. */
export function sessionsQuery() {
  return apiGetQuery<SessionListData>(SESSIONS_KEY, { path: API.userSessions });
}

export function useSessions() {
  return useQuery(sessionsQuery());
}
