import type { Db } from '../../db/database.ts';
import { RateLimitedError } from '../../errors.ts';
import { rateLimitRepository } from './rate-limit.repository.ts';

export interface LimitRule {
  bucket: string;
  max: number;
  windowSeconds: number;
}

/**
 * Counts attempts against rules before the work they limit is done, so parallel requests cannot
 * all slip under the limit. The error names the minutes of the window.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    /** How long an attempt waits for places held by attempts still being checked. */
    private readonly busyWaitMs = 15_000,
  ) {}

  /**
   * Lets one attempt in to be checked (settle it with `settle`), or refuses it. A window full of
   * failures refuses at once with `messageKey` (naming the window's minutes). Places held by
   * attempts still being checked — correct logins at the same moment — are not failures: the
   * attempt waits for them to finish (a password check takes a moment), and only if they keep
   * the places for `busyWaitMs` is it refused, with `busyKey`, which says so.
   */
  async enter(rule: LimitRule, key: string, messageKey: string, busyKey: string): Promise<void> {
    const deadline = Date.now() + this.busyWaitMs;
    for (;;) {
      const now = this.now();
      if (await rateLimitRepository.enter(this.db, rule.bucket, key, now, rule.windowSeconds, rule.max)) return;
      const state = await rateLimitRepository.state(this.db, rule.bucket, key);
      const failures = state && state.window_start > now - rule.windowSeconds ? state.hits : 0;
      if (failures >= rule.max) throw new RateLimitedError(messageKey, this.minutes(rule));
      if (Date.now() >= deadline) throw new RateLimitedError(busyKey);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The attempt `enter` let in is checked: a failure counts, anything else leaves no trace. */
  settle(rule: LimitRule, key: string, failed: boolean): Promise<void> {
    return rateLimitRepository.settle(this.db, rule.bucket, key, failed);
  }

  /** Forgets a key's failures (a correct password). */
  clear(rule: LimitRule, key: string): Promise<void> {
    return rateLimitRepository.clear(this.db, rule.bucket, key);
  }

  private minutes(rule: LimitRule) {
    return { minutes: Math.max(1, Math.ceil(rule.windowSeconds / 60)) };
  }

  /** Counts one attempt, or refuses it (uncounted) when the window is full. */
  async take(rule: LimitRule, key: string, messageKey: string): Promise<void> {
    if (!(await rateLimitRepository.take(this.db, rule.bucket, key, this.now(), rule.windowSeconds, rule.max))) {
      throw new RateLimitedError(messageKey, this.minutes(rule));
    }
  }

  /** Undoes one `take` whose attempt turned out not to count (a success, a refusal before the work). */
  giveBack(rule: LimitRule, key: string): Promise<void> {
    return rateLimitRepository.giveBack(this.db, rule.bucket, key);
  }
}
