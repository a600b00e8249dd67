import { validateDnsRecord } from './dns-rules.ts';

/**
 * The provider's default zone records: the templates, how they render for a zone, and the check
 * the configuration runs on them at start. Here, beside the record rules, so that the server's
 * configuration and its DNS module both depend on the contract and not on each other.
 */

export interface DefaultRecordTemplate {
  zona: string;
  type: string;
  priority?: number;
  /** 0 (the zone's default) when left out. */
  ttl?: number;
  /**
   * May use {domain} (the service's zone), {web_ipv4}, {web_ipv6}, {mail_ipv4}, {web_host},
   * {mail_host} (the provider's web and mail servers, from the config), {databases_ipv4},
   * {databases_host} (the server holding the service's databases: a record made from one is the
   * host its applications reach their databases at, and follows a move), {spf_include} (the
   * provider's SPF record), {dmarc_report} (where DMARC reports go) and {ns} (one record per
   * name server). A template using a setting that is empty (no IPv6, no web host…) is left out.
   */
  value: string;
  eliminable?: boolean;
}

/**
 * The provider's default zone when the config names none (`dns.defaultRecords`,
 * PANEL_DNS_DEFAULT_RECORDS): name servers (not eliminable), the web server at the apex and www,
 * the mail server with an SPF policy including the provider's, and DMARC in monitoring mode
 * (p=none) with the provider's report address. "Restore defaults" puts exactly the configured set back.
 */
export const DEFAULT_RECORD_TEMPLATES: DefaultRecordTemplate[] = [
  { zona: '', type: 'NS', value: '{ns}', eliminable: false },
  { zona: '', type: 'A', value: '{web_ipv4}' },
  { zona: '', type: 'AAAA', value: '{web_ipv6}' },
  { zona: 'www', type: 'CNAME', value: '{domain}' },
  { zona: '', type: 'MX', priority: 10, value: 'mail.{domain}' },
  { zona: 'mail', type: 'A', value: '{mail_ipv4}' },
  { zona: '', type: 'TXT', value: 'v=spf1 mx a include:{spf_include} ~all' },
  { zona: '_dmarc', type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:{dmarc_report}' },
];

export interface DefaultRecordValues {
  domain: string;
  webIpv4: string;
  webIpv6: string;
  mailIpv4: string;
  webHost: string;
  mailHost: string;
  /** The databases server's, for {databases_ipv4} and {databases_host} ('' or absent: none). */
  databasesIpv4?: string;
  databasesHost?: string;
  spfInclude: string;
  dmarcReport: string;
  nameservers: string[];
}

export interface DefaultRecord {
  zona: string;
  type: string;
  ttl: number;
  priority: number;
  value: string;
  dynamicValue: string;
  eliminable: boolean;
}

const PLACEHOLDER = /\{([a-z0-9_]+)\}/g;
/** Placeholders whose value follows the provider's settings (shown as the record's dynamic value). */
// Not {spf_include} nor {dmarc_report}: SPF and DMARC are the customer's to edit (the mail view's
// form), so they show as plain records, not as values the provider keeps in step.
const PROVIDER_SETTINGS = [
  'web_ipv4',
  'web_ipv6',
  'mail_ipv4',
  'web_host',
  'mail_host',
  'databases_ipv4',
  'databases_host',
  'ns',
];

function settingsOf(values: DefaultRecordValues, ns: string): Record<string, string> {
  return {
    domain: values.domain,
    web_ipv4: values.webIpv4,
    web_ipv6: values.webIpv6,
    mail_ipv4: values.mailIpv4,
    web_host: values.webHost.replace(/\.$/, ''),
    mail_host: values.mailHost.replace(/\.$/, ''),
    databases_ipv4: values.databasesIpv4 ?? '',
    databases_host: (values.databasesHost ?? '').replace(/\.$/, ''),
    spf_include: values.spfInclude.replace(/\.$/, ''),
    dmarc_report: values.dmarcReport,
    ns: ns.replace(/\.$/, ''),
  };
}

export function renderDefaultRecords(templates: DefaultRecordTemplate[], values: DefaultRecordValues): DefaultRecord[] {
  return templates.flatMap((template) => {
    const nsList = template.value.includes('{ns}') ? values.nameservers : [''];
    return nsList.flatMap((ns) => {
      const settings = settingsOf(values, ns);
      const used = [...template.value.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
      if (used.some((name) => !settings[name])) return [];
      const value = template.value.replace(PLACEHOLDER, (_, name: string) => settings[name] ?? '').replace(/\.$/, '');
      if (value === '') return [];
      return [
        {
          zona: template.zona,
          type: template.type,
          ttl: template.ttl ?? 0,
          priority: template.priority ?? 0,
          value,
          // A value that follows the provider's settings shows where it comes from.
          dynamicValue: used.some((name) => PROVIDER_SETTINGS.includes(name)) ? template.value : '',
          eliminable: template.eliminable ?? true,
        },
      ];
    });
  });
}

/** One problem of a configured template: what is wrong, or the record rule it breaks (an i18n key). */
export type DefaultRecordProblem =
  | { index: number; unknownPlaceholders: string[] }
  | { index: number; record: string; field: string; messageKey: string };

/**
 * What is wrong with a configured default set, checked at start: unknown placeholders, and every
 * record rendered (for a sample domain) through the same rules as a record typed in the panel.
 */
export function defaultRecordProblems(
  templates: DefaultRecordTemplate[],
  values: Omit<DefaultRecordValues, 'domain'>,
): DefaultRecordProblem[] {
  const problems: DefaultRecordProblem[] = [];
  const known = Object.keys(settingsOf({ ...values, domain: 'example.com' }, ''));
  templates.forEach((template, index) => {
    const unknown = [...template.value.matchAll(PLACEHOLDER)]
      .map((match) => match[1] as string)
      .filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      problems.push({ index, unknownPlaceholders: unknown });
      return;
    }
    for (const record of renderDefaultRecords([template], { ...values, domain: 'example.com' })) {
      const result = validateDnsRecord(record, 'example.com');
      for (const error of result.errors) {
        problems.push({
          index,
          record: `${record.type} '${record.zona}'`,
          field: error.field,
          messageKey: error.messageKey,
        });
      }
    }
  });
  return problems;
}
