import type { FieldError } from '../../errors.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const CONTROL = /[\u0000-\u001f\u007f]/;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** One or more RFC 1123 labels in front of the service's domain. */
const SUBDOMAIN = new RegExp(`^(?=.{1,190}$)${LABEL}(?:\\.${LABEL})*$`);

/** A subdomain as typed, lower-cased ('' is the main domain); a problem is added to `errors` under `field`. */
export function checkSubdomain(value: string, field: string, errors: FieldError[]): string {
  const label = value.trim().toLowerCase();
  if (CONTROL.test(value)) errors.push({ field, messageKey: 'validation.control_chars' });
  else if (label !== '' && !SUBDOMAIN.test(label)) errors.push({ field, messageKey: 'hosting.error.subdomain' });
  return label;
}

/** The host a site or redirection answers on. */
export function hostOf(subdomain: string, domain: string): string {
  return subdomain === '' ? domain : `${subdomain}.${domain}`;
}
