import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { run } from './system.ts';

/**
 * A self-signed certificate for a host name, made once: the panel's TLS proxy and the mail
 * services start with it, and ACME replaces it later (a re-run never overwrites a file there, so
 * a real certificate is kept). The organisation and name are allow-listed (options.ts).
 */
export async function ensureSelfSigned(dir: string, host: string, organisation: string): Promise<boolean> {
  const key = path.join(dir, 'key.pem');
  const chain = path.join(dir, 'fullchain.pem');
  if (existsSync(key) && existsSync(chain)) return false;
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '825',
    '-subj',
    `/O=${organisation}/CN=${host}`,
    '-addext',
    `subjectAltName=DNS:${host}`,
    '-keyout',
    key,
    '-out',
    chain,
  ]);
  await run('chmod', ['0600', key]);
  return true;
}
