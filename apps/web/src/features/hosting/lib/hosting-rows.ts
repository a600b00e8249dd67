import type { Subdomain } from '@panel247/contract/hosting';

const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

/** The host a site or redirection answers on: '' is the main domain itself. */
export function siteHost(subdominio: string, domain: string): string {
  return subdominio === '' ? domain : `${subdominio}.${domain}`;
}

/** The main domain first, then the subdomains by host. */
export function sortSites(sites: readonly Subdomain[]): Subdomain[] {
  return [...sites].sort(
    (a, b) =>
      Number(a.subdominio !== '') - Number(b.subdominio !== '') ||
      byText(siteHost(a.subdominio, a.referencePunycode), siteHost(b.subdominio, b.referencePunycode)),
  );
}

/** The hosts a redirection can start from: the main domain ('') and each subdomain, by host. */
export function hostChoices(domain: string, sites: readonly Subdomain[]): { value: string; label: string }[] {
  const labels = sortSites(sites)
    .map((site) => site.subdominio)
    .filter((label) => label !== '');
  return [{ value: '', label: domain }, ...labels.map((label) => ({ value: label, label: siteHost(label, domain) }))];
}

/** The sites the builder can open: '*' is the main domain (spec section 5), then each subdomain label. */
export function builderChoices(domain: string, sites: readonly Subdomain[]): { value: string; label: string }[] {
  return hostChoices(domain, sites).map((choice) => ({ value: choice.value || '*', label: choice.label }));
}

export type SslState = 'off' | 'active' | 'expired' | 'not_yet_valid';

/** What the SSL column says of a site at `now` (epoch seconds). */
export function sslState(site: Subdomain, now: number): SslState {
  if (!site.ssl.enabled) return 'off';
  const info = site.ssl.info;
  if (info && info.validTo < now) return 'expired';
  if (info && info.validFrom > now) return 'not_yet_valid';
  return 'active';
}
