/**
 * Glue record name: a host under the domain, typed as a label ("ns1", "a.ns") or in full
 * ("ns1.example.com"). i18n key of the error, or null.
 */
export function glueNameError(raw: string, domainName: string): string | null {
  const value = raw.trim().toLowerCase().replace(/\.$/, '');
  if (value === '') return 'validation.required';
  const domain = domainName.toLowerCase();
  const host = value.endsWith(`.${domain}`) ? value.slice(0, -(domain.length + 1)) : value;
  if (host === '' || host === domain) return 'domain.error.glue_name';
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (!host.split('.').every((part) => label.test(part))) return 'domain.error.glue_name';
  if (host.length + domain.length + 1 > 253) return 'domain.error.glue_name';
  return null;
}

/** The full host name the record will have. */
export function glueFullName(raw: string, domainName: string): string {
  const value = raw.trim().toLowerCase().replace(/\.$/, '');
  const domain = domainName.toLowerCase();
  return value.endsWith(`.${domain}`) ? value : `${value}.${domain}`;
}
