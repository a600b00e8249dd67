import { createHmac } from 'node:crypto';
import { type Challenge, createChallenge, type Payload, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Db } from '../../db/database.ts';
import type { CaptchaVerifier } from './captcha.verifier.ts';
import { captchaSpentRepository } from './captcha-spent.repository.ts';

const CHALLENGE_SECONDS = 600;

/**
 * Self-hosted ALTCHA proof of work (works offline): the server signs a challenge, the browser's
 * widget finds the counter, the server checks the signature and the work, then records the
 * signature so one solution cannot be replayed.
 */
export class AltchaVerifier implements CaptchaVerifier {
  readonly provider = 'altcha' as const;
  private readonly signatureSecret: string;
  private readonly keySecret: string;

  constructor(
    private readonly db: Db,
    secretKey: Buffer,
    private readonly maxNumber: number,
    private readonly now: () => number,
  ) {
    // Separate keys derived from the panel secret, so the captcha never holds the master key.
    this.signatureSecret = createHmac('sha256', secretKey).update('altcha-signature').digest('hex');
    this.keySecret = createHmac('sha256', secretKey).update('altcha-key').digest('hex');
  }

  createChallenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: randomInt(Math.floor(this.maxNumber / 2), this.maxNumber),
      deriveKey,
      expiresAt: this.now() + CHALLENGE_SECONDS,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
    });
  }

  async verify(response: string): Promise<boolean> {
    const payload = decodePayload(response);
    if (!payload?.challenge?.signature) return false;
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
    }).catch(() => undefined);
    if (!result?.verified) return false;
    return this.spend(payload.challenge.signature, payload.challenge.parameters.expiresAt ?? this.now());
  }

  /** Records a used challenge; false when it was already used. Expired entries are swept here. */
  private async spend(signature: string, expiresAt: number): Promise<boolean> {
    await captchaSpentRepository.deleteExpired(this.db, this.now());
    return captchaSpentRepository.insertOnce(this.db, signature.slice(0, 128), expiresAt);
  }
}

function decodePayload(response: string): Payload | undefined {
  if (!response || response.length > 20_000) return undefined;
  try {
    const json = JSON.parse(Buffer.from(response, 'base64').toString('utf8'));
    return json && typeof json === 'object' && json.challenge && json.solution ? (json as Payload) : undefined;
  } catch {
    return undefined;
  }
}
