import type { Db } from '../../db/database.ts';
import { RateLimitedError } from '../../errors.ts';
import { rateLimitRepository } from './rate-limit.repository.ts';

export interface LimitRule {
  bucket: string;
  max: number;
  windowSeconds: number;
}

/** Checks and counts against one rule; the error names the minutes left of the window. */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  async assertUnder(rule: LimitRule, key: string, messageKey: string): Promise<void> {
    const hits = await rateLimitRepository.hits(this.db, rule.bucket, key, this.now(), rule.windowSeconds);
    if (hits >= rule.max) {
      throw new RateLimitedError(messageKey, { minutes: Math.max(1, Math.ceil(rule.windowSeconds / 60)) });
    }
  }

  hit(rule: LimitRule, key: string): Promise<void> {
    return rateLimitRepository.hit(this.db, rule.bucket, key, this.now(), rule.windowSeconds);
  }

  reset(rule: LimitRule, key: string): Promise<void> {
    return rateLimitRepository.reset(this.db, rule.bucket, key);
  }
}
