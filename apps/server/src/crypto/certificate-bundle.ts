import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { FieldErrors } from '../errors.ts';

/**
 * An SSL certificate uploaded for a site: the certificate (`cert`), its private key (`certkey`)
 * and optionally the intermediate chain (`certchain`), checked before anything reaches the web
 * server. Each problem is a field error on the field that holds it.
 */

export interface CertificateBundleInput {
  cert: string;
  key: string;
  chain?: string;
}

export interface CertificateBundle {
  /** The subject's common name ('' when the subject has none). */
  commonName: string;
  /** DNS names of the subject alternative names, or the common name when there are none. */
  names: string[];
  subject: string;
  issuer: string;
  validFrom: Date;
  validTo: Date;
  /** SHA-256 of the DER certificate, upper-case hex pairs separated by colons. */
  fingerprint256: string;
  /** The PEM texts as they go to the web server: leaf, then the chain in order. */
  certPem: string;
  keyPem: string;
  chainPem: string;
  /** Whether the certificate is valid for the host name (wildcards as TLS clients match them). */
  covers(host: string): boolean;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END CERTIFICATE-----/g;
const MAX_PEM = 64 * 1024;

function certificates(text: string, field: string): X509Certificate[] {
  if (text.length > MAX_PEM || text.includes('\0')) throw FieldErrors.one(field, `hosting.error.${field}`);
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  // Anything but PEM blocks and blank space between them is refused (no stray text in the files).
  const rest = blocks.reduce((left, block) => left.replace(block, ''), text);
  if (rest.trim() !== '') throw FieldErrors.one(field, `hosting.error.${field}`);
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch {
    throw FieldErrors.one(field, `hosting.error.${field}`);
  }
}

function privateKey(text: string): KeyObject {
  if (text.length > MAX_PEM || text.includes('\0') || !/^\s*-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    throw FieldErrors.one('certkey', 'hosting.error.certkey');
  }
  if (/ENCRYPTED/.test(text)) throw FieldErrors.one('certkey', 'hosting.error.certkey_encrypted');
  try {
    return createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw FieldErrors.one('certkey', 'hosting.error.certkey');
  }
}

function checkDates(certificate: X509Certificate, field: string, now: Date) {
  if (new Date(certificate.validFrom) > now) throw FieldErrors.one(field, 'hosting.error.cert_not_yet_valid');
  if (new Date(certificate.validTo) < now) throw FieldErrors.one(field, 'hosting.error.cert_expired');
}

function commonName(distinguishedName: string): string {
  const line = distinguishedName.split('\n').find((part) => part.startsWith('CN='));
  return line ? line.slice(3) : '';
}

function dnsNames(certificate: X509Certificate): string[] {
  const alternatives = certificate.subjectAltName ?? '';
  const names = alternatives
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).toLowerCase());
  if (names.length > 0) return names;
  const cn = commonName(certificate.subject).toLowerCase();
  return cn ? [cn] : [];
}

/** Parses and checks the bundle; `now` is the moment validity is judged at. */
export function parseCertificateBundle(input: CertificateBundleInput, now: Date = new Date()): CertificateBundle {
  const leafAndMore = certificates(input.cert, 'cert');
  const [leaf, ...extra] = leafAndMore;
  if (!leaf) throw FieldErrors.one('cert', 'hosting.error.cert');
  // A pasted full chain in the certificate field: its extra certificates are the chain's start.
  const chain = [...extra, ...(input.chain?.trim() ? certificates(input.chain, 'certchain') : [])];
  const key = privateKey(input.key);

  checkDates(leaf, 'cert', now);
  if (!leaf.checkPrivateKey(key)) throw FieldErrors.one('certkey', 'hosting.error.certkey_mismatch');

  let previous = leaf;
  for (const next of chain) {
    if (!previous.checkIssued(next) || !previous.verify(next.publicKey)) {
      throw FieldErrors.one('certchain', 'hosting.error.certchain_link');
    }
    checkDates(next, 'certchain', now);
    previous = next;
  }

  const pem = (certificate: X509Certificate) => `${certificate.toString().trim()}\n`;
  return {
    commonName: commonName(leaf.subject),
    names: dnsNames(leaf),
    subject: leaf.subject,
    issuer: leaf.issuer,
    validFrom: new Date(leaf.validFrom),
    validTo: new Date(leaf.validTo),
    fingerprint256: leaf.fingerprint256,
    certPem: pem(leaf),
    keyPem: `${key.export({ format: 'pem', type: 'pkcs8' }).toString().trim()}\n`,
    chainPem: chain.map(pem).join(''),
    covers: (host: string) => leaf.checkHost(host.toLowerCase()) !== undefined,
  };
}
