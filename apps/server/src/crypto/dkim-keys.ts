import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { DkimAlgorithm } from '@panel247/contract/mail-auth-rules';

const generate = promisify(generateKeyPair);

export interface DkimKeyPair {
  /** PEM, as OpenDKIM's key files hold it (PKCS#1 for RSA, PKCS#8 for Ed25519). */
  privateKey: string;
  /** The record's p= value: base64 of the SubjectPublicKeyInfo (RSA) or of the raw 32-byte key (Ed25519, RFC 8463). */
  publicKey: string;
}

/** A new DKIM key pair, made in-process by OpenSSL through node:crypto (no shell, no temporary file). */
export async function generateDkimKey(algorithm: DkimAlgorithm): Promise<DkimKeyPair> {
  if (algorithm === 'rsa') {
    const pair = await generate('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    return { privateKey: pair.privateKey, publicKey: pair.publicKey.toString('base64') };
  }
  const pair = await generate('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // An Ed25519 SubjectPublicKeyInfo is a fixed 12-byte header and the 32-byte key.
  return { privateKey: pair.privateKey, publicKey: pair.publicKey.subarray(-32).toString('base64') };
}
