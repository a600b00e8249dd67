import { ApiError, type ApiResult, apiCall, type Params, type RequestOptions } from '../../../lib/api-client';

/** The console's calls, under the API base path (the server's `console.routes.ts`). */
export const CONSOLE_API = {
  login: 'console/login/',
  logout: 'console/logout/',
  info: 'console/info/',
  plans: 'console/plans/list/',
  planSave: 'console/plans/save/',
  planRemove: 'console/plans/remove/',
  services: 'console/services/list/',
  accountCreate: 'console/accounts/create/',
  suspend: (domain: string) => `console/services/${encodeURIComponent(domain)}/suspend/`,
  unsuspend: (domain: string) => `console/services/${encodeURIComponent(domain)}/unsuspend/`,
  plan: (domain: string) => `console/services/${encodeURIComponent(domain)}/plan/`,
  terminate: (domain: string) => `console/services/${encodeURIComponent(domain)}/terminate/`,
  brands: 'console/brands/list/',
  brand: (slug: string) => `console/brands/${encodeURIComponent(slug)}/`,
  brandSave: (slug: string) => `console/brands/${encodeURIComponent(slug)}/save/`,
  brandLegal: (slug: string) => `console/brands/${encodeURIComponent(slug)}/legal/`,
  accounts: 'console/accounts/list/',
  accountUsers: (domain: string) => `console/accounts/${encodeURIComponent(domain)}/users/`,
  userManager: (domain: string, username: string) =>
    `console/accounts/${encodeURIComponent(domain)}/users/${encodeURIComponent(username)}/manager/`,
  work: 'console/work/list/',
  jobRetry: (id: string) => `console/work/${encodeURIComponent(id)}/retry/`,
  outbox: 'console/outbox/list/',
  activity: 'console/activity/list/',
  servers: 'console/servers/list/',
} as const;

/** Every console query key starts here: signing out drops them all at once. */
export const consoleQueryKey = ['console'] as const;

export type ConsoleOptions = RequestOptions & {
  /** The sign-in and sign-out calls: their 401 is an answer of theirs, not a session that ended. */
  signIn?: boolean;
};

const staffSessionListeners = new Set<() => void>();

/** Told when a console call answers 401: the staff session ended (expired, or signed out elsewhere). */
export function onStaffSessionLost(listener: () => void): () => void {
  staffSessionListeners.add(listener);
  return () => staffSessionListeners.delete(listener);
}

export function isStaffSessionLost(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * A console call. The staff session is not the customer's: a 401 here must never open the
 * customer's session-loss modal (`ignoreSessionLost`), it sends the console to its own sign-in page.
 * The sign-in call itself answers 401 for a wrong password, which is only the form's error.
 */
export async function consoleCall<T>(
  path: string,
  params?: Params,
  options: ConsoleOptions = {},
): Promise<ApiResult<T>> {
  const { signIn, ...rest } = options;
  try {
    return await apiCall<T>(path, params, { ...rest, ignoreSessionLost: true });
  } catch (error) {
    if (!signIn && isStaffSessionLost(error)) for (const listener of staffSessionListeners) listener();
    throw error;
  }
}

/** Like consoleCall, only the data. */
export async function consoleApi<T>(path: string, params?: Params, options?: ConsoleOptions): Promise<T> {
  return (await consoleCall<T>(path, params, options)).data;
}

/** Queries retry once, but never a 401: the session will not come back by asking again. */
export function consoleRetry(count: number, error: unknown): boolean {
  return !isStaffSessionLost(error) && !(error instanceof ApiError && error.status === 404) && count < 1;
}
