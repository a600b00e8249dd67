import { createHmac, randomInt } from 'node:crypto';

// Crockford's base32 without the look-alikes (0/O, 1/I/L, U): codes are read off paper.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 10;

/**
 * One-time recovery codes: 10 characters from 30 (49 bits), shown as XXXXX-XXXXX.
 *
 * Stored as HMAC-SHA256 under a key derived from the panel's secret key, not argon2: a code is
 * random, not chosen by a person, so a slow hash adds nothing against guessing it from a stolen
 * table (49 bits, and without the key the hashes cannot even be tested), while a keyed hash can be
 * looked up with one indexed query instead of ten argon2 checks per attempt, which would make
 * every wrong code cost the server ~200 MiB of hashing.
 */
export class RecoveryCodes {
  private readonly key: Buffer;

  constructor(secretKey: Buffer) {
    this.key = createHmac('sha256', secretKey).update('recovery-codes').digest();
  }

  generate(count: number): string[] {
    return Array.from({ length: count }, () => {
      let code = '';
      for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
      return `${code.slice(0, 5)}-${code.slice(5)}`;
    });
  }

  /** Case, spaces and dashes do not matter; undefined for something that cannot be a code. */
  normalise(input: string): string | undefined {
    const code = input.toUpperCase().replace(/[\s-]/g, '');
    return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
  }

  hash(normalised: string): string {
    return createHmac('sha256', this.key).update(normalised).digest('hex');
  }
}
