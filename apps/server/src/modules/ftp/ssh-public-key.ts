import { SSH_KEY_NAME_MAX, SSH_RSA_MIN_BITS } from '@panel247/contract/sftp-keys';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import sshpk from 'sshpk';
import { FieldErrors } from '../../errors.ts';

/** A public key as the panel keeps it: what is shown, and the RFC 4716 text ProFTPD reads. */
export interface ParsedSshKey {
  algorithm: string;
  bits: number;
  fingerprint: string;
  /** The key's own comment ('' when it has none). */
  comment: string;
  /** OpenSSH's one line without the comment: `type base64`. */
  publicKey: string;
  rfc4716: string;
}

/** The types mod_sftp checks a client's signature with; DSA and security-key (sk-) types are refused. */
const TAKEN_TYPES = new Set([
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
]);

/** The type named inside the key's wire form (RFC 4253: a length, then the name), never the text's first word. */
function wireType(blob: Buffer): string {
  return blob.subarray(4, 4 + blob.readUInt32BE(0)).toString('latin1');
}

/**
 * RFC 4716's public key file: the wire form in base64, lines of 70 characters (the RFC allows 72)
 * between its BEGIN and END lines. mod_sftp_sql reads only this form. Written here: sshpk reads
 * it but does not write it, and it is three fixed lines around the base64.
 */
function rfc4716(blob: Buffer): string {
  const lines = blob.toString('base64').match(/.{1,70}/g) ?? [];
  return ['---- BEGIN SSH2 PUBLIC KEY ----', ...lines, '---- END SSH2 PUBLIC KEY ----', ''].join('\n');
}

/**
 * A key as pasted (the .pub file's one line) checked and read with sshpk: its type from the
 * taken ones, RSA of SSH_RSA_MIN_BITS or more, its fingerprint as ssh-keygen prints it. Every
 * refusal is the `key` field's.
 */
export function parseSshPublicKey(text: string): ParsedSshKey {
  const typed = text.trim();
  if (typed === '') throw FieldErrors.one('key', 'validation.required');
  if (/PRIVATE KEY/.test(typed)) throw FieldErrors.one('key', 'ftp.error.key_private');
  // one line: a second key, or anything after it, is not read silently
  if (/[\r\n]/.test(typed)) throw FieldErrors.one('key', 'ftp.error.key_one');
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(typed, 'ssh');
  } catch {
    throw FieldErrors.one('key', 'ftp.error.key_format');
  }
  const blob = key.toBuffer('rfc4253');
  const algorithm = wireType(blob);
  if (!TAKEN_TYPES.has(algorithm) || algorithm !== typed.split(/\s+/)[0])
    throw FieldErrors.one('key', 'ftp.error.key_type');
  if (algorithm === 'ssh-rsa' && key.size < SSH_RSA_MIN_BITS)
    throw FieldErrors.one('key', 'ftp.error.key_size', { min: String(SSH_RSA_MIN_BITS) });
  const comment = key.comment && key.comment !== '(unnamed)' ? key.comment : '';
  return {
    algorithm,
    bits: key.size,
    fingerprint: key.fingerprint('sha256').toString(),
    comment: hasControlCharacters(comment) ? '' : comment.slice(0, SSH_KEY_NAME_MAX),
    publicKey: `${algorithm} ${blob.toString('base64')}`,
    rfc4716: rfc4716(blob),
  };
}
