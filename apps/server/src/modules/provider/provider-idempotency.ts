import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { ConflictError, FieldErrors } from '../../errors.ts';
import { providerIdempotencyRepository } from './provider-idempotency.repository.ts';

/** How long a key's answer is kept: a billing system retries within hours, not days. */
export const IDEMPOTENCY_KEEP_SECONDS = 7 * 24 * 3600;

/**
 * A first call still `running` after this long died with its instance (a call answers within
 * the server's request timeout): its key is taken over by the next call with it.
 */
export const IDEMPOTENCY_ABANDONED_SECONDS = 600;

const KEY = /^[\x21-\x7e]{8,255}$/;

/** What to do with a creating call: do it (and record its answer), or answer as the first time. */
export type Claim = { kind: 'first' } | { kind: 'replay'; statusCode: number; answer: string };

/** The SHA-256 of what a call asks: its method, route and parameters, keys sorted. */
export function requestHash(method: string, route: string, params: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash('sha256')
    .update(JSON.stringify([method, route, sorted]))
    .digest('hex');
}

/**
 * Idempotency keys of the provisioning API's creating calls: the same call sent again with its key
 * (a retry after a lost answer) is answered as the first time and done once; the key with another
 * request is refused, as is a second call while the first still works. A call that failed on the
 * panel's side (5xx) frees its key, so that the retry does the work.
 */
export class ProviderIdempotency {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** `subject`: what the call makes (a service's domain), whose removal forgets the key. */
  async claim(tokenId: number, key: string | undefined, hash: string, subject: string | null = null): Promise<Claim> {
    if (key === undefined || !KEY.test(key)) throw FieldErrors.one('Idempotency-Key', 'provider.error.idempotency_key');
    await providerIdempotencyRepository.deleteOlderThan(this.db, this.now() - IDEMPOTENCY_KEEP_SECONDS);
    const row = { token_id: tokenId, idempotency_key: key, request_hash: hash, created_at: this.now(), subject };
    if (await providerIdempotencyRepository.claim(this.db, row)) return { kind: 'first' };
    const earlier = await providerIdempotencyRepository.find(this.db, tokenId, key);
    if (!earlier) return this.claim(tokenId, key, hash, subject);
    if (earlier.state !== 'done' || earlier.status_code === null || earlier.answer === null) {
      if (Number(earlier.created_at) >= this.now() - IDEMPOTENCY_ABANDONED_SECONDS)
        throw new ConflictError('provider.error.in_progress');
      await providerIdempotencyRepository.releaseIfRunningSince(this.db, tokenId, key, Number(earlier.created_at));
      return this.claim(tokenId, key, hash, subject);
    }
    if (earlier.request_hash !== hash) throw new ConflictError('provider.error.key_reused');
    return { kind: 'replay', statusCode: earlier.status_code, answer: earlier.answer };
  }

  async finish(tokenId: number, key: string, statusCode: number, answer: string): Promise<void> {
    if (statusCode >= 500) await providerIdempotencyRepository.release(this.db, tokenId, key);
    else await providerIdempotencyRepository.finish(this.db, tokenId, key, statusCode, answer);
  }

  /** Every key of a call that made `subject`, forgotten (it was removed). */
  async forget(subject: string): Promise<void> {
    await providerIdempotencyRepository.deleteOfSubject(this.db, subject);
  }
}
