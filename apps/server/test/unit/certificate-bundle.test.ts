import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../../scripts/test-support/self-signed-certificate.ts';
import { parseCertificateBundle } from '../../src/crypto/certificate-bundle.ts';
import { FieldErrors } from '../../src/errors.ts';

const run = promisify(execFile);
const DAY = 86_400_000;

interface Pair {
  cert: string;
  key: string;
}

/** Certificates made at test time with openssl: a CA, an intermediate, a leaf, a stranger. */
let dir: string;
let ca: Pair;
let intermediate: Pair;
let leaf: Pair;
let stranger: Pair;

async function openssl(...args: string[]) {
  await run('openssl', args, { cwd: dir });
}

function selfSigned(name: string, subject: string, extra: string[] = []): Promise<Pair> {
  return selfSignedCertificate({ dir, name, subject, extra });
}

async function signed(name: string, subject: string, issuer: string, extensions: string): Promise<Pair> {
  await openssl(
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  );
  await writeFile(path.join(dir, `${name}.ext`), extensions);
  await openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${issuer}.crt`,
    '-CAkey',
    `${issuer}.key`,
    '-CAcreateserial',
    '-days',
    '10',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  );
  return {
    cert: await readFile(path.join(dir, `${name}.crt`), 'utf8'),
    key: await readFile(path.join(dir, `${name}.key`), 'utf8'),
  };
}

function fieldOf(work: () => unknown): { field: string; key: string } {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(FieldErrors);
    const first = (error as FieldErrors).fields[0];
    return { field: first?.field ?? '', key: first?.messageKey ?? '' };
  }
  throw new Error('no error thrown');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'p247-cert-'));
  ca = await selfSigned('ca', '/CN=Test Root CA', ['-addext', 'basicConstraints=critical,CA:TRUE']);
  intermediate = await signed('int', '/CN=Test Intermediate', 'ca', 'basicConstraints=critical,CA:TRUE\n');
  leaf = await signed(
    'leaf',
    '/CN=shop.test',
    'int',
    'basicConstraints=CA:FALSE\nsubjectAltName=DNS:shop.test,DNS:*.shop.test\n',
  );
  stranger = await selfSigned('stranger', '/CN=other.test');
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('certificate bundle', () => {
  it('accepts a leaf with its key and chain, and describes it', () => {
    const bundle = parseCertificateBundle({ cert: leaf.cert, key: leaf.key, chain: intermediate.cert + ca.cert });
    expect(bundle.commonName).toBe('shop.test');
    expect(bundle.names).toEqual(['shop.test', '*.shop.test']);
    expect(bundle.issuer).toContain('CN=Test Intermediate');
    expect(bundle.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(bundle.validTo.getTime()).toBeGreaterThan(Date.now());
    expect(bundle.validFrom.getTime()).toBeLessThanOrEqual(Date.now());
    expect(bundle.covers('shop.test')).toBe(true);
    expect(bundle.covers('www.shop.test')).toBe(true);
    expect(bundle.covers('a.b.shop.test')).toBe(false);
    expect(bundle.covers('other.test')).toBe(false);
    expect(bundle.chainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(bundle.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('accepts a self-signed certificate without a chain and a full chain pasted in the certificate', () => {
    expect(parseCertificateBundle({ cert: stranger.cert, key: stranger.key }).names).toEqual(['other.test']);
    const pasted = parseCertificateBundle({ cert: leaf.cert + intermediate.cert, key: leaf.key });
    expect(pasted.chainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
  });

  it('refuses a key that does not belong to the certificate', () => {
    expect(fieldOf(() => parseCertificateBundle({ cert: leaf.cert, key: stranger.key }))).toEqual({
      field: 'certkey',
      key: 'hosting.error.certkey_mismatch',
    });
  });

  it('refuses a chain whose certificates do not sign each other', () => {
    expect(fieldOf(() => parseCertificateBundle({ cert: leaf.cert, key: leaf.key, chain: ca.cert }))).toEqual({
      field: 'certchain',
      key: 'hosting.error.certchain_link',
    });
    expect(
      fieldOf(() =>
        parseCertificateBundle({ cert: leaf.cert, key: leaf.key, chain: intermediate.cert + stranger.cert }),
      ),
    ).toEqual({ field: 'certchain', key: 'hosting.error.certchain_link' });
  });

  it('refuses an expired certificate and one not valid yet', () => {
    const later = new Date(Date.now() + 20 * DAY);
    expect(fieldOf(() => parseCertificateBundle({ cert: leaf.cert, key: leaf.key }, later))).toEqual({
      field: 'cert',
      key: 'hosting.error.cert_expired',
    });
    const earlier = new Date(Date.now() - 2 * DAY);
    expect(fieldOf(() => parseCertificateBundle({ cert: leaf.cert, key: leaf.key }, earlier))).toEqual({
      field: 'cert',
      key: 'hosting.error.cert_not_yet_valid',
    });
    // Within every certificate's validity the same bundle passes.
    const chainLater = new Date(Date.now() + 5 * DAY);
    expect(
      parseCertificateBundle({ cert: leaf.cert, key: leaf.key, chain: intermediate.cert }, chainLater).names,
    ).toContain('shop.test');
  });

  it('refuses garbage in each field', () => {
    expect(fieldOf(() => parseCertificateBundle({ cert: 'hello', key: leaf.key }))).toEqual({
      field: 'cert',
      key: 'hosting.error.cert',
    });
    expect(fieldOf(() => parseCertificateBundle({ cert: `${leaf.cert}\nserver { }`, key: leaf.key })).field).toBe(
      'cert',
    );
    const broken = leaf.cert.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA');
    expect(fieldOf(() => parseCertificateBundle({ cert: broken, key: leaf.key })).field).toBe('cert');
    expect(fieldOf(() => parseCertificateBundle({ cert: leaf.cert, key: 'not a key' }))).toEqual({
      field: 'certkey',
      key: 'hosting.error.certkey',
    });
    expect(fieldOf(() => parseCertificateBundle({ cert: leaf.cert, key: leaf.key, chain: 'junk' }))).toEqual({
      field: 'certchain',
      key: 'hosting.error.certchain',
    });
  });
});
