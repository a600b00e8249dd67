import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The host key files `SFTPHostKey` names in deploy/proftpd/proftpd.conf.template. */
export const SFTP_HOST_KEYS = {
  'sftp-host-rsa.pem': () =>
    generateKeyPairSync('rsa', { modulusLength: 3072 }).privateKey.export({ type: 'pkcs1', format: 'pem' }),
  'sftp-host-ecdsa.pem': () =>
    generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }),
} as const;

/**
 * ProFTPD's SFTP host keys in `dir`, each made once and then kept: a client that has seen the
 * server remembers its key and refuses a new one as a possible impostor. Made with Node's crypto
 * (PEM, which mod_sftp reads through OpenSSL) so a server needs no ssh-keygen; written 0600, as
 * mod_sftp refuses a key others can read. Returns the files it made.
 */
export function ensureSftpHostKeys(dir: string): string[] {
  const made: string[] = [];
  for (const [name, generate] of Object.entries(SFTP_HOST_KEYS)) {
    const file = path.join(dir, name);
    if (existsSync(file)) continue;
    // 'wx': never over a key another process made in between
    writeFileSync(file, generate(), { mode: 0o600, flag: 'wx' });
    made.push(file);
  }
  return made;
}
