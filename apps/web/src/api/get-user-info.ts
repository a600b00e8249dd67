import { API } from '@panel247/contract/routes';
import type { UserInfoData } from '@panel247/contract/user';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client';
import { takeNoSessionHint } from '../lib/boot-shell';

export const userInfoQueryKey = ['session', 'user-info'] as const;

/**
 * The session: user info, or null when not logged in. At boot a 101 answer (or any failure)
 * simply means "not logged in", so this call never opens the session-loss modal.
 */
export async function getUserInfo(): Promise<UserInfoData | null> {
  try {
    return await api<UserInfoData>(API.userInfo, undefined, { method: 'POST', ignoreSessionLost: true });
  } catch {
    return null;
  }
}

/** The boot's check: nobody, without asking, when the page came without a session cookie. */
export function getBootUserInfo(): Promise<UserInfoData | null> {
  return takeNoSessionHint() ? Promise.resolve(null) : getUserInfo();
}

export function useUserInfo() {
  return useQuery({ queryKey: userInfoQueryKey, queryFn: getUserInfo, staleTime: Number.POSITIVE_INFINITY });
}
