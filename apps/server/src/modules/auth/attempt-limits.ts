import type { LimitRule, RateLimiter } from '../rate-limit/rate-limiter.ts';

export interface LoginLimits {
  perAccount: LimitRule;
  perIp: LimitRule;
}

/** The brute-force windows' key of an account: the login's domain and user name. */
export function accountKeyOf(domainName: string, username: string): string {
  return `${domainName}|${username.toLowerCase()}`;
}

/**
 * Runs one guess (a password, a code) inside the login's brute-force windows, per address and
 * per account: a place is taken before the check, a wrong guess counts in both, a right one
 * leaves no trace (clearing the account's failures is the caller's choice). Codes count in the
 * per-account window too, so spreading guesses over many addresses gains nothing.
 */
export async function limitedAttempt<T>(
  limiter: RateLimiter,
  limits: LoginLimits,
  ip: string,
  accountKey: string,
  check: () => Promise<{ wrong: boolean; value: T }>,
): Promise<T> {
  await limiter.enter(limits.perIp, ip, 'auth.too_many_attempts', 'auth.too_many_at_once');
  try {
    await limiter.enter(limits.perAccount, accountKey, 'auth.too_many_attempts', 'auth.too_many_at_once');
  } catch (error) {
    await limiter.settle(limits.perIp, ip, false);
    throw error;
  }
  let wrong = false;
  try {
    const result = await check();
    wrong = result.wrong;
    return result.value;
  } finally {
    await limiter.settle(limits.perIp, ip, wrong);
    await limiter.settle(limits.perAccount, accountKey, wrong);
  }
}
