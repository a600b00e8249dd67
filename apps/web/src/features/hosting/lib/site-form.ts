import type { Subdomain } from '@panel247/contract/hosting';
import { isSubdomainName } from '@panel247/contract/hosting-rules';
import { folderLabel, folderToApi, serviceFolderError } from '../../../lib/service-folder';

export interface SiteFormValues {
  subDomain: string;
  folder: string;
  ssl: boolean;
  cert: string;
  /** Never filled from the server: empty means "keep the installed key". */
  certkey: string;
  certchain: string;
}

export interface SiteSavePayload {
  folder: string;
  SSLActive: '0' | '1';
  cert: string;
  certkey: string;
  certchain: string;
}

export interface SiteCreatePayload extends SiteSavePayload {
  subDomain: string;
}

/** The form for a new site (a prefilled subdomain is kept) or for an existing one. */
export function siteValues(site: Subdomain | null, subDomain = ''): SiteFormValues {
  if (!site)
    return { subDomain, folder: subDomain ? `/${subDomain}` : '/', ssl: false, cert: '', certkey: '', certchain: '' };
  return {
    subDomain: site.subdominio,
    folder: folderLabel(site.directorio),
    ssl: site.ssl.enabled,
    cert: site.ssl.cert.cert,
    certkey: '',
    certchain: site.ssl.cert.ca,
  };
}

/**
 * What is sent. Certificate fields go only with SSL on, and only when something changed: the
 * installed certificate and chain untouched with an empty key field keep what the site has.
 */
export function toSavePayload(values: SiteFormValues, site: Subdomain | null): SiteSavePayload {
  const unchanged =
    site !== null &&
    values.certkey.trim() === '' &&
    values.cert.trim() === site.ssl.cert.cert.trim() &&
    values.certchain.trim() === site.ssl.cert.ca.trim();
  const sendCertificate = values.ssl && !unchanged;
  return {
    folder: folderToApi(values.folder),
    SSLActive: values.ssl ? '1' : '0',
    cert: sendCertificate ? values.cert.trim() : '',
    certkey: sendCertificate ? values.certkey.trim() : '',
    certchain: sendCertificate ? values.certchain.trim() : '',
  };
}

export function toCreatePayload(values: SiteFormValues): SiteCreatePayload {
  return { subDomain: values.subDomain.trim().toLowerCase(), ...toSavePayload(values, null) };
}

export function subdomainError(value: string): string | null {
  const label = value.trim().toLowerCase();
  if (label === '') return 'validation.required';
  return isSubdomainName(label) ? null : 'hosting.invalid_subdomain';
}

function pemError(value: string, kind: 'CERTIFICATE' | 'PRIVATE KEY'): string | null {
  const text = value.trim();
  if (text === '') return null;
  const ok =
    kind === 'CERTIFICATE'
      ? /^-----BEGIN CERTIFICATE-----/.test(text)
      : /^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text);
  return ok ? null : kind === 'CERTIFICATE' ? 'hosting.invalid_cert' : 'hosting.invalid_key';
}

/**
 * The form's own checks (the server checks again); errors are i18n keys by field. With SSL on, a
 * site without a certificate needs one, and a new certificate needs its key.
 */
export function validateSite(values: SiteFormValues, site: Subdomain | null): Record<string, string> {
  const errors: Record<string, string> = {};
  if (site === null) {
    const sub = subdomainError(values.subDomain);
    if (sub) errors.subDomain = sub;
  }
  const folder = serviceFolderError(values.folder, 'hosting.invalid_folder');
  if (folder) errors.folder = folder;
  if (!values.ssl) return errors;
  const payload = toSavePayload(values, site);
  const installed = site !== null && site.ssl.cert.cert !== '';
  if (payload.cert === '' && !installed) errors.cert = 'validation.required';
  if (payload.cert !== '' && payload.certkey === '') errors.certkey = 'validation.required';
  const cert = pemError(values.cert, 'CERTIFICATE');
  if (cert) errors.cert = cert;
  const key = pemError(values.certkey, 'PRIVATE KEY');
  if (key) errors.certkey = key;
  const chain = values.certchain
    .split(/(?=-----BEGIN )/)
    .map((block) => pemError(block, 'CERTIFICATE'))
    .find(Boolean);
  if (chain) errors.certchain = 'hosting.invalid_chain';
  return errors;
}
