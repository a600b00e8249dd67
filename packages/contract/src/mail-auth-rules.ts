/**
 * DKIM, SPF and DMARC records: how the panel composes them, reads them back and checks them.
 * Shared by the server (the DNS rules check every TXT record with `mailAuthTxtProblem`, whoever
 * wrote it) and the web's guided form. Zod-free; errors are i18n keys.
 */

import { isAliasTarget } from './mail-rules.ts';

export const DMARC_POLICIES = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof DMARC_POLICIES)[number];
/** Most `include:` terms the form takes: SPF allows 10 DNS lookups in all (RFC 7208 4.6.4), `mx` and `a` take two. */
export const SPF_MAX_INCLUDES = 8;
export const DMARC_MAX_REPORT_ADDRESSES = 5;

export const DKIM_ALGORITHMS = ['rsa', 'ed25519'] as const;
export type DkimAlgorithm = (typeof DKIM_ALGORITHMS)[number];

/** The relative owner name of a selector's record. */
export function dkimRecordName(selector: string): string {
  return `${selector}._domainkey`;
}

/**
 * A domain an SPF `include:` names: a host name whose labels may also start with `_`, as the
 * big providers' do (`_spf.google.com`).
 */
export function isSpfDomain(value: string): boolean {
  const bare = value.endsWith('.') ? value.slice(0, -1) : value;
  const labels = bare.split('.');
  return (
    bare.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?$/i.test(label)) &&
    !/^\d+$/.test(labels.at(-1) ?? '')
  );
}

/** The DKIM key record (RFC 6376 3.6.1, RFC 8463 for ed25519). */
export function dkimRecordValue(algorithm: DkimAlgorithm, publicKey: string): string {
  return `v=DKIM1; k=${algorithm}; p=${publicKey}`;
}

/** A selector the panel makes: a letter, then letters, digits and hyphens (one DNS label). */
export function isSelector(value: string): boolean {
  return /^[a-z][a-z0-9-]{0,62}$/.test(value) && !value.endsWith('-');
}

/** `tag=value` pairs of a DKIM or DMARC record (RFC 6376 3.2), or undefined when malformed. */
function tagList(text: string): Map<string, string> | undefined {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    const match = /^([a-z][a-z0-9_]*)\s*=\s*(.*)$/i.exec(trimmed);
    if (!match) return undefined;
    const name = (match[1] as string).toLowerCase();
    if (tags.has(name)) return undefined;
    tags.set(name, (match[2] as string).trim());
  }
  return tags;
}

export interface SpfRecord {
  /** Host names of `include:` terms, in order. */
  includes: string[];
  /** Every other term as written (`mx`, `a`, `ip4:…`, `~all`…). */
  others: string[];
}

/** An SPF record's terms, or undefined when the text is not SPF (`v=spf1` first). */
export function parseSpf(text: string): SpfRecord | undefined {
  const terms = text.trim().split(/\s+/);
  if (terms[0]?.toLowerCase() !== 'v=spf1') return undefined;
  const includes: string[] = [];
  const others: string[] = [];
  for (const term of terms.slice(1)) {
    const include = /^\+?include:(.+)$/i.exec(term);
    if (include) includes.push((include[1] as string).toLowerCase());
    else others.push(term);
  }
  return { includes, others };
}

/**
 * The SPF record with these includes: the other terms kept where they were, the includes before
 * the `all` term (which ends the evaluation, so anything after it would never count).
 */
export function composeSpf(includes: string[], base = 'v=spf1 mx a ~all'): string {
  const parsed = parseSpf(base) ?? { includes: [], others: ['mx', 'a', '~all'] };
  const isAll = (term: string) => /^[+?~-]?all$/i.test(term) || /^redirect=/i.test(term);
  const before = parsed.others.filter((term) => !isAll(term));
  const after = parsed.others.filter(isAll);
  return ['v=spf1', ...before, ...includes.map((host) => `include:${host}`), ...after].join(' ');
}

const SPF_MECHANISM =
  /^[+?~-]?(all|include:\S+|a(:\S+)?(\/\d{1,3}){0,2}|mx(:\S+)?(\/\d{1,3}){0,2}|ptr(:\S+)?|ip4:[0-9./]+|ip6:[0-9a-f:./]+|exists:\S+)$/i;
const SPF_MODIFIER = /^[a-z][a-z0-9_.-]*=\S*$/i;

/** The problem of an SPF record, if any: its terms (RFC 7208 section 12), and each include's host. */
export function spfProblem(text: string): string | undefined {
  const parsed = parseSpf(text);
  if (!parsed) return 'mail.auth.error.spf';
  if (parsed.includes.some((host) => !isSpfDomain(host))) return 'mail.auth.error.spf_include';
  if (parsed.others.some((term) => !SPF_MECHANISM.test(term) && !SPF_MODIFIER.test(term))) return 'mail.auth.error.spf';
  return undefined;
}

export interface DmarcRecord {
  policy: DmarcPolicy;
  pct: number;
  /** Aggregate report addresses (without `mailto:`). */
  rua: string[];
}

/** A DMARC record's policy, percentage and report addresses, or undefined when it is not DMARC. */
export function parseDmarc(text: string): DmarcRecord | undefined {
  const tags = tagList(text);
  if (tags?.get('v') !== 'DMARC1') return undefined;
  const policy = tags.get('p')?.toLowerCase();
  if (!(DMARC_POLICIES as readonly string[]).includes(policy ?? '')) return undefined;
  const pct = tags.has('pct') ? Number(tags.get('pct')) : 100;
  if (!Number.isInteger(pct) || pct < 0 || pct > 100) return undefined;
  const rua = (tags.get('rua') ?? '')
    .split(',')
    .map((uri) => uri.trim())
    .filter((uri) => uri !== '')
    .map((uri) => uri.replace(/^mailto:/i, '').replace(/!\d+[kmgt]?$/i, ''));
  return { policy: policy as DmarcPolicy, pct, rua };
}

export function composeDmarc(record: DmarcRecord): string {
  const parts = [`v=DMARC1`, `p=${record.policy}`];
  if (record.pct !== 100) parts.push(`pct=${record.pct}`);
  if (record.rua.length > 0) parts.push(`rua=${record.rua.map((address) => `mailto:${address}`).join(',')}`);
  return parts.join('; ');
}

/**
 * An SPF record as receivers select them (RFC 7208 4.5): the text starts with `v=spf1`, then a
 * space or its end, in any case. Two such records at a name are a `permerror`.
 */
export function isSpfText(text: string): boolean {
  return /^v=spf1(\s|$)/i.test(text.trim());
}

/**
 * A DMARC record as receivers select them (RFC 7489 6.6.3): the text starts with the `v=DMARC1`
 * tag. More than one at `_dmarc` and receivers apply no DMARC at all.
 */
export function isDmarcText(text: string): boolean {
  return /^v\s*=\s*DMARC1\s*(;|$)/i.test(text.trim());
}

/** The kinds of TXT record a name may hold only once. */
export type SingleTxtKind = 'spf' | 'dmarc';

/** Which once-per-name kind a TXT record at `zona` is: SPF at any name, DMARC at a `_dmarc` name. */
export function singleTxtKind(zona: string, text: string): SingleTxtKind | undefined {
  if (isSpfText(text)) return 'spf';
  if (zona.split('.')[0] === '_dmarc' && isDmarcText(text)) return 'dmarc';
  return undefined;
}

/** The field error of a second record of a once-per-name kind. */
export const SECOND_TXT_ERROR: Record<SingleTxtKind, string> = {
  spf: 'dns.error.spf_twice',
  dmarc: 'dns.error.dmarc_twice',
};

/** SPF allows ten terms that cost a DNS lookup in one check, includes and redirects followed (RFC 7208 4.6.4). */
export const SPF_MAX_LOOKUPS = 10;

/**
 * The terms of one SPF record that cost a DNS lookup (RFC 7208 4.6.4: include, a, mx, ptr, exists
 * and the redirect modifier), and the domains whose own SPF records count too (include and
 * redirect). A domain written with macros (`%{…}`) is counted but cannot be followed.
 */
export function spfLookupTerms(text: string): { count: number; follow: string[] } {
  const terms = text.trim().split(/\s+/).slice(1);
  let count = 0;
  const follow: string[] = [];
  for (const term of terms) {
    const mechanism = /^[+?~-]?(include|a|mx|ptr|exists)(?=$|[:/])(?::(\S+?))?(?:\/\d.*)?$/i.exec(term);
    const redirect = /^redirect=(\S+)$/i.exec(term);
    if (!mechanism && !redirect) continue;
    count += 1;
    const target = redirect ? redirect[1] : mechanism?.[1]?.toLowerCase() === 'include' ? mechanism[2] : undefined;
    if (target && !target.includes('%')) follow.push(target.toLowerCase().replace(/\.$/, ''));
  }
  return { count, follow };
}

/** The problem of a DMARC record, if any (RFC 7489 6.3): v first, a known policy, pct 0-100, mailto report URIs. */
export function dmarcProblem(text: string): string | undefined {
  const tags = tagList(text);
  if (!tags || !/^\s*v\s*=\s*DMARC1\s*(;|$)/.test(text)) return 'mail.auth.error.dmarc';
  if (!parseDmarc(text)) return 'mail.auth.error.dmarc';
  for (const name of ['rua', 'ruf']) {
    const uris = (tags.get(name) ?? '').split(',').filter((uri) => uri.trim() !== '');
    for (const uri of uris) {
      const address = uri.trim().replace(/!\d+[kmgt]?$/i, '');
      if (!/^mailto:/i.test(address) || !isAliasTarget(address.slice(7))) return 'mail.auth.error.dmarc_rua';
    }
  }
  return undefined;
}

/** The problem of a DKIM key record, if any: DKIM1, a known key type, a base64 key (empty: revoked). */
export function dkimProblem(text: string): string | undefined {
  const tags = tagList(text);
  if (!tags || (tags.has('v') && tags.get('v') !== 'DKIM1')) return 'mail.auth.error.dkim';
  const k = tags.get('k') ?? 'rsa';
  if (!(DKIM_ALGORITHMS as readonly string[]).includes(k)) return 'mail.auth.error.dkim';
  const p = (tags.get('p') ?? '').replace(/\s+/g, '');
  if (!tags.has('p') || !/^[A-Za-z0-9+/]*={0,2}$/.test(p)) return 'mail.auth.error.dkim';
  return undefined;
}

/**
 * What the DNS rules say of a TXT record meant for mail authentication: an SPF record (at any
 * name), a DMARC record at `_dmarc`, a DKIM key at `selector._domainkey`. Other TXT records are
 * free text. Only records that declare themselves (`v=spf1`, `v=DMARC1`, DKIM's owner name) are
 * checked, so a broken one is refused instead of silently ignored by receivers.
 */
export function mailAuthTxtProblem(zona: string, text: string): string | undefined {
  if (isSpfText(text)) return spfProblem(text);
  const labels = zona.split('.');
  if (labels[0] === '_dmarc' && /^\s*v\s*=\s*DMARC/i.test(text)) return dmarcProblem(text);
  if (labels[1] === '_domainkey' && /(^|;)\s*(v\s*=\s*DKIM1|p\s*=)/.test(text)) return dkimProblem(text);
  return undefined;
}

/** The form's report addresses and includes as typed: trimmed, lower-cased, empty ones dropped, each once. */
export function cleanList(values: string[]): string[] {
  return [...new Set(values.map((value) => value.trim().toLowerCase()).filter((value) => value !== ''))];
}

/** Field problems of the guided form (the record it produces is then checked by the DNS rules). */
export function mailAuthPolicyProblems(input: {
  dmarcPolicy: string;
  dmarcPct: number;
  dmarcRua: string[];
  spfIncludes: string[];
}): { field: string; messageKey: string }[] {
  const problems: { field: string; messageKey: string }[] = [];
  if (!(DMARC_POLICIES as readonly string[]).includes(input.dmarcPolicy))
    problems.push({ field: 'dmarcPolicy', messageKey: 'mail.auth.error.policy' });
  if (!Number.isInteger(input.dmarcPct) || input.dmarcPct < 0 || input.dmarcPct > 100)
    problems.push({ field: 'dmarcPct', messageKey: 'mail.auth.error.pct' });
  const rua = cleanList(input.dmarcRua);
  if (rua.length > DMARC_MAX_REPORT_ADDRESSES || rua.some((address) => !isAliasTarget(address)))
    problems.push({ field: 'dmarcRua', messageKey: 'mail.auth.error.dmarc_rua' });
  const includes = cleanList(input.spfIncludes);
  if (includes.length > SPF_MAX_INCLUDES || includes.some((host) => !isSpfDomain(host)))
    problems.push({ field: 'spfIncludes', messageKey: 'mail.auth.error.spf_include' });
  return problems;
}
