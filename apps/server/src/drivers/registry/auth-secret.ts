import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** An auth code (or transfer key): a mix of classes as registries require, without look-alikes. */
export function newLocalAuthSecret(type: 'authcode' | 'transferkey'): string {
  const length = type === 'authcode' ? 16 : 12;
  let secret = '';
  for (let i = 0; i < length; i++) secret += ALPHABET[randomInt(ALPHABET.length)];
  return type === 'authcode' ? `${secret}#7` : secret;
}
