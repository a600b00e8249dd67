import { generatePassword } from '@panel247/contract/password-rules';

/** A uniform random integer below max, from the browser's CSPRNG (rejection sampling, no modulo bias). */
export function secureRandom(max: number): number {
  const limit = Math.floor(0x1_0000_0000 / max) * max;
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    const value = buffer[0] as number;
    if (value < limit) return value % max;
  }
}

/** 14 characters with at least one lower, one upper, one digit and one symbol. */
export function newPassword(): string {
  return generatePassword(secureRandom);
}
