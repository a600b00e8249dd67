import type { ZoneRecord } from './zone-rendering.ts';

export interface DefaultRecordTemplate {
  zona: string;
  type: string;
  priority?: number;
  /** May use {domain}, {web_ipv4}, {web_ipv6}, {mail_ipv4}, {ns} (one record per name server). */
  value: string;
  eliminable?: boolean;
}

/**
 * The provider's default zone: name servers (not eliminable), the web server at the apex and www,
 * the mail server with an SPF policy. "Restore defaults" puts exactly these back.
 */
export const DEFAULT_RECORD_TEMPLATES: DefaultRecordTemplate[] = [
  { zona: '', type: 'NS', value: '{ns}', eliminable: false },
  { zona: '', type: 'A', value: '{web_ipv4}' },
  { zona: '', type: 'AAAA', value: '{web_ipv6}' },
  { zona: 'www', type: 'CNAME', value: '{domain}' },
  { zona: '', type: 'MX', priority: 10, value: 'mail.{domain}' },
  { zona: 'mail', type: 'A', value: '{mail_ipv4}' },
  { zona: '', type: 'TXT', value: 'v=spf1 mx a ~all' },
];

export interface DefaultRecord extends ZoneRecord {
  dynamicValue: string;
  eliminable: boolean;
}

export function renderDefaultRecords(
  templates: DefaultRecordTemplate[],
  values: { domain: string; webIpv4: string; webIpv6: string; mailIpv4: string; nameservers: string[] },
): DefaultRecord[] {
  const fill = (template: string, ns = '') =>
    template
      .replaceAll('{domain}', values.domain)
      .replaceAll('{web_ipv4}', values.webIpv4)
      .replaceAll('{web_ipv6}', values.webIpv6)
      .replaceAll('{mail_ipv4}', values.mailIpv4)
      .replaceAll('{ns}', ns);
  return templates.flatMap((template) => {
    const nsList = template.value.includes('{ns}') ? values.nameservers : [''];
    return nsList
      .map((ns) => ({
        zona: template.zona,
        type: template.type,
        ttl: 0,
        priority: template.priority ?? 0,
        value: fill(template.value, ns).replace(/\.$/, ''),
        // A value that follows the provider's settings shows where it comes from.
        dynamicValue: /\{(web_ipv4|web_ipv6|mail_ipv4|ns)\}/.test(template.value) ? template.value : '',
        eliminable: template.eliminable ?? true,
      }))
      .filter((record) => record.value !== '');
  });
}
