import { DNSSEC_DIGEST_LENGTHS } from '@panel247/contract/domain-rules';

export interface DigestFormValues {
  keytag: string;
  algorithm: string;
  digesttype: string;
  digest: string;
}

export interface PubkeyFormValues {
  flags: string;
  protocols: string;
  algorithm: string;
  digest: string;
}

/** Hex characters a digest of this type has (SHA-1 40, SHA-256 64, GOST 64, SHA-384 96). */
export function digestLength(digestType: string | number): number | undefined {
  return DNSSEC_DIGEST_LENGTHS[Number(digestType)];
}

/** Field → i18n key (with the interpolation values) for the digest form. */
export function validateDigestForm(
  values: DigestFormValues,
): Record<string, { key: string; values?: Record<string, unknown> }> {
  const errors: Record<string, { key: string; values?: Record<string, unknown> }> = {};
  const keytag = values.keytag.trim();
  if (keytag === '') errors.keytag = { key: 'validation.required' };
  else if (!/^\d+$/.test(keytag) || Number(keytag) > 65535) errors.keytag = { key: 'domain.error.keytag' };
  if (values.algorithm === '') errors.algorithm = { key: 'validation.required' };
  if (values.digesttype === '') errors.digesttype = { key: 'validation.required' };
  const digest = values.digest.trim();
  const length = digestLength(values.digesttype);
  if (digest === '') errors.digest = { key: 'validation.required' };
  else if (!/^[0-9a-f]+$/i.test(digest)) errors.digest = { key: 'domain.error.digest_hex' };
  else if (length !== undefined && digest.length !== length) {
    errors.digest = { key: 'domain.error.digest_length', values: { length } };
  }
  return errors;
}

/** The public key is base64 (whitespace allowed, as copied from a DNSKEY record). */
export function validatePubkeyForm(
  values: PubkeyFormValues,
): Record<string, { key: string; values?: Record<string, unknown> }> {
  const errors: Record<string, { key: string; values?: Record<string, unknown> }> = {};
  if (!['256', '257'].includes(values.flags)) errors.flags = { key: 'domain.error.flags' };
  if (values.protocols !== '3') errors.protocols = { key: 'domain.error.protocol' };
  const key = values.digest.replace(/\s+/g, '');
  if (key === '') errors.digest = { key: 'validation.required' };
  else if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || key.length % 4 !== 0) errors.digest = { key: 'domain.error.base64' };
  return errors;
}
