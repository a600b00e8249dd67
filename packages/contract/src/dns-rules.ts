/// <reference path="./punycode.d.ts" />
import punycode from 'punycode/punycode.js';
/**
 * DNS record rules shared by the server (which enforces them) and the web form (which shows the
 * same errors early). Zod-free (its one dependency is punycode.js, for IDNA2008 labels), so
 * both sides run the very same code.
 * Error values are i18n keys; the server translates them, the web has the same keys.
 */

import { mailAuthTxtProblem } from './mail-auth-rules.ts';
import { hasControlCharacters } from './text-rules.ts';

export const DNS_TYPES = ['A', 'AAAA', 'ANAME', 'CAA', 'CNAME', 'MX', 'NS', 'SRV', 'TXT'] as const;
export type DnsType = (typeof DNS_TYPES)[number];

/**
 * The largest zone file an import takes (characters), and the most records it reads. Here rather
 * than beside the import's schemas (dns-import.ts) so the DNS view, which checks the size before
 * sending, does not load zod before its import dialog is ever opened.
 */
export const DNS_IMPORT_MAX_TEXT = 2_000_000;
export const DNS_IMPORT_MAX_RECORDS = 20_000;

export const DNS_IMPORT_MODES = ['merge', 'replace'] as const;
export type DnsImportMode = (typeof DNS_IMPORT_MODES)[number];

/**
 * What an import does with a file's SPF or DMARC record when the zone keeps a different one at
 * that name (a second would break both): `replace` the zone's with the file's, or `skip` the file's.
 */
export const DNS_IMPORT_CONFLICT_CHOICES = ['skip', 'replace'] as const;
export type DnsImportConflictChoice = (typeof DNS_IMPORT_CONFLICT_CHOICES)[number];

/** TTL choices in seconds; 0 means "the zone's default". */
export const DNS_TTLS = [0, 600, 1800, 3600, 21600, 43200, 86400] as const;
export const DNS_PRIORITIES = [0, 1, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;
export const DNS_DEFAULTS = { type: 'A' as DnsType, ttl: 0, priority: 20, srvPriority: 20 } as const;

export const SRV_SERVICES = [
  ['SIP', '_sip'],
  ['SIPS', '_sips'],
  ['HTTP', '_http'],
  ['HTTPS', '_https'],
  ['FTP', '_ftp'],
  ['TFTPD', '_tftpd'],
  ['SCP', '_scp'],
  ['SMTP', '_smtp'],
  ['POP3', '_pop3'],
  ['POP3S', '_pop3s'],
  ['IMAPS', '_imaps'],
  ['IMAP', '_imap'],
  ['NAMED', '_named'],
  ['LDAP', '_ldap'],
  ['SSH', '_ssh'],
  ['DHCP', '_dhcp'],
  ['RADIUS', '_radius'],
] as const;
export const SRV_PROTOCOLS = ['_tcp', '_udp', '_tls'] as const;
export const CAA_TAGS = ['issue', 'issuewild', 'iodef'] as const;
/**
 * Types whose owner names may carry service labels (a label starting with `_`, RFC 8552): SRV
 * (`_sip._tcp`), TXT (`_dmarc`, DKIM's `selector._domainkey`, `_acme-challenge`, `_mta-sts`) and
 * CNAME (those same names delegated to another provider). An A, AAAA, ANAME, MX, NS or CAA record
 * at a service label (`_x`, or `www._tcp`) is no service-label use, so it is refused.
 */
export const SERVICE_LABEL_TYPES: readonly DnsType[] = ['SRV', 'TXT', 'CNAME'];

/** Types whose record carries a priority. */
export function hasPriority(type: string): boolean {
  return type === 'MX' || type === 'SRV';
}

/** i18n key of the value field's label for a type. */
export function valueLabelKey(type: string): string {
  switch (type) {
    case 'AAAA':
      return 'dns.value_ipv6';
    case 'ANAME':
    case 'CNAME':
      return 'dns.value_host';
    case 'MX':
      return 'dns.value_mail_server';
    case 'SRV':
      return 'dns.value_value';
    case 'TXT':
      return 'dns.value_text';
    case 'NS':
      return 'dns.value_dns_server';
    case 'CAA':
      return 'dns.value_certificate_entity';
    default:
      return 'dns.value_ip';
  }
}

const LDH_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const SERVICE_LABEL = /^_[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * UTS-46 to ASCII (punycode) through the WHATWG URL parser, present in browsers and Node; then
 * every internationalized label must be valid IDNA2008 (`isIdna2008Label`), or there is no name.
 */
export function toAsciiName(name: string): string | undefined {
  const lower = name.toLowerCase();
  // Plain ASCII needs no conversion (an `xn--` label typed as such is still checked).
  let ascii: string;
  if (/^\p{ASCII}*$/u.test(lower)) ascii = lower;
  else {
    try {
      ascii = new URL(`http://${lower}/`).hostname;
    } catch {
      return undefined;
    }
  }
  return ascii.split('.').every((label) => !label.startsWith('xn--') || isIdna2008Label(label)) ? ascii : undefined;
}

/**
 * Whether an A-label (`xn--…`) holds an IDNA2008 U-label (RFC 5891/5892). UTS-46, which browsers
 * and the URL parser apply, still lets emoji and other symbols through (`😀` → `xn--e28h`);
 * IDNA2008, and so every registry, refuses them. No maintained JavaScript library checks IDNA2008
 * code points, so this follows RFC 5892 section 2.1: a code point may be PVALID only when it is a
 * lower-case or other letter, a modifier letter, a mark or a decimal digit (Ll, Lo, Lm, Mn, Mc,
 * Nd); symbols, punctuation and spaces never are. The label must also be in NFC and must not begin
 * with a mark. Of the contextual code points, the middle dot is allowed where RFC 5892 appendix
 * A.3 allows it, between two `l` (the Catalan `l·l` of `col·legi.cat`); the others (zero-width
 * joiners, the Greek keraia, …) are refused rather than checked in context: stricter than the RFC.
 */
export function isIdna2008Label(aLabel: string): boolean {
  let unicode: string;
  try {
    unicode = punycode.decode(aLabel.slice(4));
  } catch {
    return false;
  }
  return (
    unicode.length > 0 &&
    unicode === unicode.normalize('NFC') &&
    /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}-]+$/u.test(unicode.replace(/(?<=l)\u00b7(?=l)/g, '')) &&
    !/^\p{M}/u.test(unicode)
  );
}

/**
 * A relative owner name inside a zone: '' for the apex, LDH labels, `_service` labels (a `_` only
 * as a label's first character, never inside an ordinary label), a leading `*`. Which types may
 * use service labels is `SERVICE_LABEL_TYPES`.
 */
export function isOwnerName(zona: string): boolean {
  if (zona === '') return true;
  const labels = zona.split('.');
  return labels.every((label, index) => {
    if (label === '*') return index === 0;
    return LDH_LABEL.test(label) || SERVICE_LABEL.test(label);
  });
}

/** A fully-qualified host name (at least two labels, LDH, each 1-63, total ≤ 253). */
export function isHostName(name: string): boolean {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length === 0 || bare.length > 253) return false;
  const labels = bare.split('.');
  return labels.length >= 2 && labels.every((label) => LDH_LABEL.test(label)) && !/^\d+$/.test(labels.at(-1) ?? '');
}

export function isIPv4(value: string): boolean {
  return IPV4.test(value);
}

/**
 * Canonical RFC 5952 text of an IPv6 address, or undefined when it is not one (zone ids refused).
 * An IPv4-mapped address (::ffff:0:0/96) ends in dotted decimal, as section 5 recommends:
 * `::ffff:192.0.2.1`.
 */
export function canonicalIPv6(value: string): string | undefined {
  const text = value.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(text) || text.includes(':::')) return undefined;
  let head = text;
  let tailV4: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    if (!isIPv4(v4[1] as string)) return undefined;
    tailV4 = (v4[1] as string).split('.').map(Number);
    head = text.slice(0, -(v4[1] as string).length);
    if (!head.endsWith(':')) return undefined;
    head = head.endsWith('::') ? head : head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const left = parse(halves[0] as string);
  const right = halves.length === 2 ? parse(halves[1] as string) : [];
  const groupsWanted = 8 - (tailV4.length ? 2 : 0);
  if ([...left, ...right].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const missing = groupsWanted - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...left, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
  if (tailV4.length)
    groups.push(
      ((tailV4[0] as number) << 8) | (tailV4[1] as number),
      ((tailV4[2] as number) << 8) | (tailV4[3] as number),
    );
  // Longest run of two or more zero groups becomes "::" (the first one on a tie).
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6] as number, groups[7] as number];
    return `::ffff:${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Splits TXT data into strings of at most 255 octets (UTF-8), never cutting a character. */
export function splitTxt(text: string): string[] {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of text) {
    const length = encoder.encode(char).length;
    if (size + length > 255) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += length;
  }
  parts.push(current);
  return parts;
}

/** TXT data as zone-file content: each 255-octet piece quoted, `"` and `\` escaped. */
export function quoteTxt(text: string): string {
  return splitTxt(text)
    .map((part) => `"${part.replace(/[\\"]/g, (c) => `\\${c}`)}"`)
    .join(' ');
}

/** SRV owner: service, protocol and the entered name joined with dots (the web form's composition). */
export function composeSrvName(service: string, protocol: string, zona: string): string {
  return [service, protocol, zona].filter((part) => part !== '').join('.');
}

/** SRV value: "weight port target"; the form's first number is its priority (see docs). */
/**
 * An SRV value as the panel stores it: "weight port target" (RFC 2782's fields after the priority,
 * which is the record's own priority field). The spec's form fills the weight from the priority
 * when the user leaves it empty.
 */
export function composeSrvValue(weight: number | string, port: number | string, target: string): string {
  return `${weight} ${port} ${target}`;
}

export function composeCaaValue(flag: number | string, tag: string, target: string): string {
  return `${flag} ${tag} "${target}"`;
}

/** Splits a stored SRV value back into weight, port and target, stripping the target's trailing dot. */
export function splitSrvValue(value: string): { weight: string; port: string; target: string } {
  const [weight = '', port = '', target = ''] = value.trim().split(/\s+/);
  return { weight, port, target: target.replace(/\.$/, '') };
}

/** Splits a stored CAA value back into flag, tag and the unquoted target. */
export function splitCaaValue(value: string): { flag: string; tag: string; target: string } {
  const match = /^\s*(\S+)\s+(\S+)\s+(.*)$/.exec(value);
  if (!match) return { flag: '', tag: '', target: '' };
  return { flag: match[1] as string, tag: match[2] as string, target: (match[3] as string).replace(/^"|"$/g, '') };
}

export interface DnsRecordInput {
  type: string;
  /** Owner relative to the zone ('' or '@' = apex). */
  zona: string;
  value: string;
  ttl: number;
  priority: number;
}

export interface NormalisedDnsRecord {
  type: DnsType;
  zona: string;
  value: string;
  ttl: number;
  priority: number;
}

export type DnsFieldError = { field: 'type' | 'zona' | 'value' | 'ttl' | 'priority'; messageKey: string };

/**
 * Checks one record and returns it in canonical form (lower-case names, canonical IPv6, no trailing
 * dots), or the field errors. Neighbour rules (CNAME beside other records) need the zone and are
 * the server's; `zoneName` is the zone's ASCII name, for the total length check.
 */
export function validateDnsRecord(
  input: DnsRecordInput,
  zoneName: string,
): { record: NormalisedDnsRecord; errors: [] } | { record: undefined; errors: DnsFieldError[] } {
  const errors: DnsFieldError[] = [];
  const type = (DNS_TYPES as readonly string[]).includes(input.type) ? (input.type as DnsType) : undefined;
  if (!type) errors.push({ field: 'type', messageKey: 'dns.error.type' });

  // Control characters are refused before trimming, so a trailing CR/LF cannot slip through.
  let zona = input.zona.trim();
  if (zona === '@') zona = '';
  zona = zona.replace(/\.$/, '');
  const asciiZona = hasControlCharacters(input.zona) ? undefined : toAsciiName(zona);
  if (asciiZona === undefined || !isOwnerName(asciiZona)) {
    errors.push({ field: 'zona', messageKey: 'dns.error.name' });
  } else if ((asciiZona ? asciiZona.length + 1 : 0) + zoneName.length > 253) {
    errors.push({ field: 'zona', messageKey: 'dns.error.name_too_long' });
  } else if (
    type &&
    !SERVICE_LABEL_TYPES.includes(type) &&
    asciiZona.split('.').some((label) => label.startsWith('_'))
  ) {
    errors.push({ field: 'zona', messageKey: 'dns.error.service_label' });
  }

  if (!(DNS_TTLS as readonly number[]).includes(input.ttl)) errors.push({ field: 'ttl', messageKey: 'dns.error.ttl' });
  const priority = type && hasPriority(type) ? input.priority : 0;
  if (type && hasPriority(type) && !(DNS_PRIORITIES as readonly number[]).includes(input.priority)) {
    errors.push({ field: 'priority', messageKey: 'dns.error.priority' });
  }

  const raw = input.value.trim();
  let value: string | undefined;
  if (raw === '') errors.push({ field: 'value', messageKey: 'validation.required' });
  else if (hasControlCharacters(input.value) || raw.length > 4000)
    errors.push({ field: 'value', messageKey: 'dns.error.value' });
  else if (type) {
    const checked = checkValue(type, raw, asciiZona ?? '');
    if ('error' in checked) errors.push({ field: checked.field ?? 'value', messageKey: checked.error });
    else value = checked.value;
  }

  if (errors.length > 0 || !type || value === undefined || asciiZona === undefined)
    return { record: undefined, errors };
  return { record: { type, zona: asciiZona, value, ttl: input.ttl, priority }, errors: [] };
}

function checkValue(
  type: DnsType,
  raw: string,
  zona: string,
): { value: string } | { error: string; field?: DnsFieldError['field'] } {
  const host = (text: string) => {
    const lower = text.toLowerCase().replace(/\.$/, '');
    const ascii = toAsciiName(lower);
    return ascii && isHostName(ascii) ? ascii : undefined;
  };
  switch (type) {
    case 'A':
      return isIPv4(raw) ? { value: raw } : { error: 'dns.error.ipv4' };
    case 'AAAA': {
      const canonical = canonicalIPv6(raw);
      return canonical ? { value: canonical } : { error: 'dns.error.ipv6' };
    }
    case 'CNAME':
      if (zona === '') return { error: 'dns.error.cname_apex', field: 'zona' };
      return host(raw) ? { value: host(raw) as string } : { error: 'dns.error.host' };
    case 'ANAME':
    case 'MX':
    case 'NS':
      return host(raw) ? { value: host(raw) as string } : { error: 'dns.error.host' };
    case 'SRV': {
      const labels = zona.split('.');
      // _service._proto, then only ordinary labels (the name the service is offered for).
      if (
        labels.length < 2 ||
        !SERVICE_LABEL.test(labels[0] as string) ||
        !SERVICE_LABEL.test(labels[1] as string) ||
        labels.slice(2).some((label) => label.startsWith('_'))
      ) {
        return { error: 'dns.error.srv_name', field: 'zona' };
      }
      const parts = raw.split(/\s+/);
      if (parts.length !== 3) return { error: 'dns.error.srv_value' };
      const [weight, port, target] = parts as [string, string, string];
      if (![weight, port].every((n) => /^\d{1,5}$/.test(n) && Number(n) <= 65535)) {
        return { error: 'dns.error.srv_number' };
      }
      const targetHost = target === '.' ? '.' : host(target);
      if (!targetHost) return { error: 'dns.error.host' };
      return { value: `${Number(weight)} ${Number(port)} ${targetHost}` };
    }
    case 'CAA': {
      const match = /^(\d{1,3})\s+([a-z]+)\s+"([^"\\]*)"$/i.exec(raw);
      if (!match) return { error: 'dns.error.caa' };
      const flag = Number(match[1]);
      const tag = (match[2] as string).toLowerCase();
      const target = match[3] as string;
      if (flag > 255) return { error: 'dns.error.caa_flag' };
      if (!(CAA_TAGS as readonly string[]).includes(tag)) return { error: 'dns.error.caa_tag' };
      if (
        tag === 'iodef'
          ? !/^(mailto:[^\s@]+@[^\s@]+|https?:\/\/\S+)$/.test(target)
          : !/^[a-z0-9.-]*(;.*)?$/i.test(target)
      ) {
        return { error: 'dns.error.caa_value' };
      }
      return { value: `${flag} ${tag} "${target}"` };
    }
    case 'TXT': {
      const problem = mailAuthTxtProblem(zona, raw);
      return problem ? { error: problem } : { value: raw };
    }
  }
}
