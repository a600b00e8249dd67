import { isFullIp, maskIpInput } from '@panel247/contract/domain-rules';

export { maskIpInput };

/** i18n key of the IPv4 error ('IP Invalida'), or null; an empty optional value passes. */
export function ipv4Error(value: string, required: boolean): string | null {
  if (value === '') return required ? 'validation.required' : null;
  return isFullIp(value) ? null : 'domain.error.ip';
}

/** A loose IPv6 check (the server has the final word): hex groups with colons, at most one '::'. */
export function isIpv6(value: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(value) || !value.includes(':')) return false;
  const doubles = value.split('::').length - 1;
  if (doubles > 1) return false;
  const groups = value.split(':').filter((group) => group !== '');
  if (groups.length > 8 || (doubles === 0 && groups.length !== 8 && !value.includes('.'))) return false;
  return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group) || (group.includes('.') && isFullIp(group)));
}

export function ipv6Error(value: string): string | null {
  if (value.trim() === '') return null;
  return isIpv6(value.trim()) ? null : 'domain.error.ipv6';
}
