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
  ) {}

  /** Counts one attempt, or refuses it (uncounted) when the window is full. */
  async take(rule: LimitRule, key: string, messageKey: string): Promise<void> {
    if (!(await rateLimitRepository.take(this.db, rule.bucket, key, this.now(), rule.windowSeconds, rule.max))) {
      throw new RateLimitedError(messageKey, { minutes: Math.max(1, Math.ceil(rule.windowSeconds / 60)) });
    }
  }

  /** Undoes one `take` whose attempt turned out not to count (a success, a refusal before the work). */
  giveBack(rule: LimitRule, key: string): Promise<void> {
    return rateLimitRepository.giveBack(this.db, rule.bucket, key);
  }

  reset(rule: LimitRule, key: string): Promise<void> {
    return rateLimitRepository.reset(this.db, rule.bucket, key);
  }
}
