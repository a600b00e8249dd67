import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RegistryCertificates {
  ca: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string };
  /** A client certificate from a CA the registry does not trust. */
  stranger: { cert: string; key: string };
  /** The files, for a client that reads them from disk (Net::EPP, the panel's configuration). */
  files: { ca: string; clientCert: string; clientKey: string };
  dir: string;
  remove(): Promise<void>;
}

/** A CA of its own and what it signs (EC P-256, made with openssl): TLS with client certificates as registries require. */
export async function registryCertificates(): Promise<RegistryCertificates> {
  const dir = await mkdtemp(path.join(tmpdir(), 'p247-epp-certs-'));
  const file = (name: string) => path.join(dir, name);
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  async function authority(name: string) {
    await run('openssl', [
      'req',
      '-x509',
      ...key,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.pem`),
      '-days',
      '30',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    ]);
  }
  async function leaf(name: string, by: string, extensions: string) {
    await run('openssl', [
      'req',
      ...key,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.csr`),
      '-subj',
      `/CN=${name}`,
    ]);
    await writeFile(file(`${name}.ext`), extensions);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file(`${by}.pem`),
      '-CAkey',
      file(`${by}.key`),
      '-CAcreateserial',
      '-out',
      file(`${name}.pem`),
      '-days',
      '30',
      '-extfile',
      file(`${name}.ext`),
    ]);
    return { cert: await readFile(file(`${name}.pem`), 'utf8'), key: await readFile(file(`${name}.key`), 'utf8') };
  }
  await authority('registry-ca');
  await authority('other-ca');
  const server = await leaf(
    'registry',
    'registry-ca',
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  const client = await leaf('registrar', 'registry-ca', 'extendedKeyUsage=clientAuth\n');
  const stranger = await leaf('stranger', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  return {
    ca: await readFile(file('registry-ca.pem'), 'utf8'),
    server,
    client,
    stranger,
    files: { ca: file('registry-ca.pem'), clientCert: file('registrar.pem'), clientKey: file('registrar.key') },
    dir,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
