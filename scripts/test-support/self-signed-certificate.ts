import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CertificatePair {
  cert: string;
  key: string;
}

/** Where the two files go: `{dir}/{name}.crt` and `{dir}/{name}.key`, or the paths given. */
type CertificateFiles = { dir: string; name: string } | { files: { cert: string; key: string } };

export type SelfSignedOptions = CertificateFiles & {
  /** openssl's form: `/CN=host`. */
  subject: string;
  days?: number;
  /** An RSA key (what most sites use); otherwise EC P-256, the fastest to make. */
  rsa?: boolean;
  /** More `openssl req` arguments, such as `-addext subjectAltName=DNS:host`. */
  extra?: string[];
  timeout?: number;
};

/**
 * A self-signed certificate and its key, made by openssl at test time (an argument array, never a
 * shell), read back as PEM text. Shared by the server's tests and the browser tests.
 */
export async function selfSignedCertificate(options: SelfSignedOptions): Promise<CertificatePair> {
  const { cert: certFile, key: keyFile } =
    'files' in options
      ? options.files
      : { cert: path.join(options.dir, `${options.name}.crt`), key: path.join(options.dir, `${options.name}.key`) };
  const newKey = options.rsa ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
  await run(
    'openssl',
    [
      'req',
      '-x509',
      ...newKey,
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      String(options.days ?? 30),
      '-subj',
      options.subject,
      ...(options.extra ?? []),
    ],
    { timeout: options.timeout },
  );
  return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8') };
}
