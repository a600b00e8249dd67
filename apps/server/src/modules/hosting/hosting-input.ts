import { isSubdomainName } from '@panel247/contract/hosting-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { FieldError } from '../../errors.ts';

/** A subdomain as typed, lower-cased ('' is the main domain); a problem is added to `errors` under `field`. */
export function checkSubdomain(value: string, field: string, errors: FieldError[]): string {
  const label = value.trim().toLowerCase();
  if (hasControlCharacters(value)) errors.push({ field, messageKey: 'validation.control_chars' });
  else if (label !== '' && !isSubdomainName(label)) errors.push({ field, messageKey: 'hosting.error.subdomain' });
  return label;
}

/** The host a site or redirection answers on. */
export function hostOf(subdomain: string, domain: string): string {
  return subdomain === '' ? domain : `${subdomain}.${domain}`;
}
