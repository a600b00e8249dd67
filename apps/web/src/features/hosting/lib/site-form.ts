import type { SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';
import { isSubdomainName } from '@panel247/contract/hosting-rules';
import { folderLabel, folderToApi, serviceFolderError } from '../../../lib/service-folder';
import { type SslMode, sslModeOf } from './certificate-state';

export interface SiteFormValues {
  subDomain: string;
  folder: string;
  sslMode: SslMode;
  /** Automatic only: how the CA checks the site, and whether `*.<host>` is covered too (DNS only). */
  challenge: SiteCertificate['challenge'];
  wildcard: boolean;
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

/**
 * The form for a new site (a prefilled subdomain is kept) or for an existing one, with its
 * automatic certificate when it has one.
 */
export function siteValues(
  site: Subdomain | null,
  subDomain = '',
  certificate: SiteCertificate | null = null,
): SiteFormValues {
  const automatic = {
    challenge: certificate?.challenge ?? 'http-01',
    wildcard: certificate?.wildcard ?? false,
  } as const;
  if (!site)
    return {
      subDomain,
      folder: subDomain ? `/${subDomain}` : '/',
      sslMode: 'off',
      ...automatic,
      cert: '',
      certkey: '',
      certchain: '',
    };
  return {
    subDomain: site.subdominio,
    folder: folderLabel(site.directorio),
    sslMode: sslModeOf(site, certificate),
    ...automatic,
    cert: site.ssl.cert.cert,
    certkey: '',
    certchain: site.ssl.cert.ca,
  };
}

/**
 * What is sent. Certificate fields go only with an uploaded certificate, and only when something
 * changed: the installed certificate and chain untouched with an empty key field keep what the
 * site has. Automatic keeps the site's SSL as the order left it (the order turns it on).
 */
export function toSavePayload(values: SiteFormValues, site: Subdomain | null): SiteSavePayload {
  const unchanged =
    site !== null &&
    values.certkey.trim() === '' &&
    values.cert.trim() === site.ssl.cert.cert.trim() &&
    values.certchain.trim() === site.ssl.cert.ca.trim();
  const manual = values.sslMode === 'manual';
  const sendCertificate = manual && !unchanged;
  const active = values.sslMode === 'auto' ? (site?.ssl.enabled ?? false) : manual;
  return {
    folder: folderToApi(values.folder),
    SSLActive: active ? '1' : '0',
    cert: sendCertificate ? values.cert.trim() : '',
    certkey: sendCertificate ? values.certkey.trim() : '',
    certchain: sendCertificate ? values.certchain.trim() : '',
  };
}

export function toCreatePayload(values: SiteFormValues): SiteCreatePayload {
  return { subDomain: values.subDomain.trim().toLowerCase(), ...toSavePayload(values, null) };
}

/** Automatic on, or asked again with other settings (or after a failure): the dialog places an order. */
export function wantsOrder(values: SiteFormValues, certificate: SiteCertificate | null): boolean {
  if (values.sslMode !== 'auto') return false;
  if (!certificate || certificate.state === 'failed') return true;
  return certificate.challenge !== values.challenge || certificate.wildcard !== wildcardOf(values);
}

/** A wildcard is only asked for with the DNS check (the server refuses it otherwise). */
export function wildcardOf(values: SiteFormValues): boolean {
  return values.challenge === 'dns-01' && values.wildcard;
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
 * The form's own checks (the server checks again); errors are i18n keys by field. With an
 * uploaded certificate, a site without one needs it, and a new certificate needs its key.
 */
export function validateSite(values: SiteFormValues, site: Subdomain | null): Record<string, string> {
  const errors: Record<string, string> = {};
  if (site === null) {
    const sub = subdomainError(values.subDomain);
    if (sub) errors.subDomain = sub;
  }
  const folder = serviceFolderError(values.folder, 'hosting.invalid_folder');
  if (folder) errors.folder = folder;
  if (values.sslMode !== 'manual') return errors;
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
