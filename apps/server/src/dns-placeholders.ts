import { isIPv4 } from 'node:net';
import { type AppConfig, configSchema } from './config.ts';

/**
 * The provider's DNS settings ship with documentation values (RFC 5737 and 3849 addresses, names
 * under .test), so a trial and the test suite have a complete zone. In production they would land
 * in every customer's zone: an AAAA record nobody answers, an SPF include that fails, DMARC reports
 * sent nowhere. This finds them (for the server's start and `doctor`), and says what a record made
 * with one of them should hold now (for `panel dns placeholders --fix`). Beside the configuration,
 * not in the DNS module: `doctor`'s checks (a driver) use it too.
 */

/** One setting still holding a documentation value that a customer's zone would get. */
export interface PlaceholderSetting {
  /** The environment variable that sets it. */
  variable: string;
  /** Its path in the configuration file. */
  path: string;
  value: string;
}

const RESERVED_NAMES = /(^|\.)(test|example|invalid|localhost|example\.(com|net|org))\.?$/i;

/** Whether an address, a host name or a mail address is one reserved for documentation and tests. */
export function isDocumentationValue(value: string): boolean {
  const text = value.trim();
  if (isIPv4(text)) return /^(192\.0\.2|198\.51\.100|203\.0\.113)\./.test(text);
  // 2001:db8::/32: the first two groups are always written (a zero first group would not be 2001)
  if (text.includes(':')) return /^2001:0?db8(:|$)/i.test(text);
  const host = text.includes('@') ? text.slice(text.lastIndexOf('@') + 1) : text;
  return RESERVED_NAMES.test(host);
}

/** The settings a default record is rendered from: variable, path, placeholder name in templates. */
const RENDERED_SETTINGS = [
  { variable: 'PANEL_DNS_WEB_IPV4', key: 'webIpv4', placeholder: 'web_ipv4' },
  { variable: 'PANEL_DNS_WEB_IPV6', key: 'webIpv6', placeholder: 'web_ipv6' },
  { variable: 'PANEL_DNS_MAIL_IPV4', key: 'mailIpv4', placeholder: 'mail_ipv4' },
  { variable: 'PANEL_DNS_WEB_HOST', key: 'webHost', placeholder: 'web_host' },
  { variable: 'PANEL_DNS_MAIL_HOST', key: 'mailHost', placeholder: 'mail_host' },
  { variable: 'PANEL_DNS_DATABASES_IPV4', key: 'databasesIpv4', placeholder: 'databases_ipv4' },
  { variable: 'PANEL_DNS_DATABASES_HOST', key: 'databasesHost', placeholder: 'databases_host' },
  { variable: 'PANEL_DNS_SPF_INCLUDE', key: 'spfInclude', placeholder: 'spf_include' },
  { variable: 'PANEL_DNS_DMARC_REPORT', key: 'dmarcReport', placeholder: 'dmarc_report' },
] as const;

/**
 * The settings that still hold a documentation value and reach a customer's zone: the name
 * servers (every zone's NS records and SOA), each setting a default record uses, and any address
 * or name written as it is in a default record. Empty when the provider has set its own.
 */
export function placeholderSettings(config: AppConfig): PlaceholderSetting[] {
  const found: PlaceholderSetting[] = [];
  config.dns.nameservers.forEach((name, index) => {
    if (isDocumentationValue(name)) {
      found.push({ variable: 'PANEL_DNS_NAMESERVERS', path: `dns.nameservers.${index}`, value: name });
    }
  });
  const templates = config.dns.defaultRecords;
  for (const setting of RENDERED_SETTINGS) {
    const value = config.dns[setting.key];
    const used = templates.some((template) => template.value.includes(`{${setting.placeholder}}`));
    if (used && value && isDocumentationValue(value))
      found.push({ variable: setting.variable, path: `dns.${setting.key}`, value });
  }
  templates.forEach((template, index) => {
    // the words of the value around its placeholders, without an SPF or DMARC prefix
    const words = template.value
      .replace(/\{[a-z0-9_]+\}/g, ' ')
      .split(/[\s;,]+/)
      .map((word) => word.replace(/^(?:[+?~-]?(?:include|a|mx|ip4|ip6|ptr|exists):|ru[af]=mailto:|mailto:)/i, ''))
      .filter((word) => /[.:]/.test(word));
    for (const word of words.filter(isDocumentationValue)) {
      found.push({ variable: 'PANEL_DNS_DEFAULT_RECORDS', path: `dns.defaultRecords.${index}`, value: word });
    }
  });
  return found;
}

/**
 * Why the server must not start: under NODE_ENV=production (the systemd unit sets it) a
 * documentation value would reach customers' zones, unless PANEL_DNS_ALLOW_PLACEHOLDERS says this
 * is a trial. Undefined when it may start.
 */
export function placeholderRefusal(config: AppConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_ENV !== 'production' || config.dns.allowPlaceholders) return undefined;
  const found = placeholderSettings(config);
  if (found.length === 0) return undefined;
  return [
    "Invalid configuration: these DNS settings still hold documentation values, which every new customer's zone would get:",
    ...found.map((setting) => `  - ${setting.path} (${setting.variable}): ${setting.value}`),
    "Set the provider's own values (an empty PANEL_DNS_WEB_IPV6, PANEL_DNS_SPF_INCLUDE or PANEL_DNS_DMARC_REPORT leaves that record out),",
    'then correct the zones made before with: npm run panel -- dns placeholders --fix',
    '(for a trial install only: PANEL_DNS_ALLOW_PLACEHOLDERS=true).',
  ].join('\n');
}

/** The documentation values the settings have when nothing sets them (the schema's defaults). */
function builtInPlaceholders() {
  return configSchema.shape.dns.parse({});
}

/** A record as the correction sees it. */
export interface RecordValue {
  type: string;
  value: string;
}

/**
 * What a record made with a built-in documentation value should hold under the current
 * settings: the new value, null to remove it (the setting is now empty), undefined to leave it
 * (not made from a placeholder, or the setting still holds one: nothing better to put).
 */
export function correctedValue(record: RecordValue, config: AppConfig): string | null | undefined {
  const old = builtInPlaceholders();
  const now = config.dns;
  const replacement = (value: string) => (isDocumentationValue(value) ? undefined : value);
  const type = record.type.toUpperCase();
  if (type === 'A' || type === 'AAAA') {
    const key = (['webIpv4', 'mailIpv4', 'webIpv6'] as const).find((k) => old[k] === record.value);
    if (!key || now[key] === old[key]) return undefined;
    return now[key] === '' ? null : replacement(now[key]);
  }
  if (type === 'NS') {
    const index = old.nameservers.indexOf(record.value.replace(/\.$/, ''));
    if (index < 0) return undefined;
    const wanted = now.nameservers[index];
    if (wanted === undefined) return null;
    return wanted === old.nameservers[index] ? undefined : replacement(wanted.replace(/\.$/, ''));
  }
  if (type === 'TXT') return correctedTxt(record.value, old, now);
  return undefined;
}

/** An SPF include or a DMARC report address of the placeholder, replaced (or dropped when now empty). */
function correctedTxt(
  value: string,
  old: { spfInclude: string; dmarcReport: string },
  now: { spfInclude: string; dmarcReport: string },
): string | undefined {
  const include = `include:${old.spfInclude}`;
  if (value.startsWith('v=spf1') && value.split(' ').includes(include) && now.spfInclude !== old.spfInclude) {
    if (now.spfInclude === '')
      return value
        .split(' ')
        .filter((word) => word !== include)
        .join(' ');
    if (isDocumentationValue(now.spfInclude)) return undefined;
    return value
      .split(' ')
      .map((word) => (word === include ? `include:${now.spfInclude.replace(/\.$/, '')}` : word))
      .join(' ');
  }
  const report = `rua=mailto:${old.dmarcReport}`;
  if (value.startsWith('v=DMARC1') && value.includes(report) && now.dmarcReport !== old.dmarcReport) {
    if (now.dmarcReport === '') {
      return value
        .split(';')
        .filter((part) => part.trim() !== report)
        .join(';');
    }
    if (isDocumentationValue(now.dmarcReport)) return undefined;
    return value.replace(report, `rua=mailto:${now.dmarcReport}`);
  }
  return undefined;
}
