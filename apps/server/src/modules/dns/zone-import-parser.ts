/**
 * A BIND master file (RFC 1035 section 5, with BIND's `$TTL` of RFC 2308 and its TTL units) read
 * into resource records, each with the line it starts on. Pure: no I/O, no panel rules (those are
 * `zone-import.ts`'s, through the create form's `validateDnsRecord`).
 *
 * Written here rather than taken from npm: the maintained parsers (`dns-zonefile`, `zone-file`)
 * give no line numbers, drop lines and types they do not know without a word, and read
 * parentheses and `;` inside quoted TXT strings wrongly; an import must account for every line.
 */

/** One word of an entry: unquoted or a quoted string, escapes (`\X`, `\DDD`) already decoded. */
export interface ZoneToken {
  text: string;
  quoted: boolean;
  /** An escaped dot (`a\.b`): a label holding a dot, which no panel name can be. */
  escapedDot: boolean;
}

/** One logical entry (a record or a directive), possibly spread over lines by parentheses. */
export interface ZoneEntry {
  /** 1-based line the entry starts on. */
  line: number;
  /** The entry starts with a blank: its owner is the previous record's. */
  blankOwner: boolean;
  tokens: ZoneToken[];
  /** A syntax fault found while reading it (i18n key). */
  error?: string;
}

/** A record read from the file, with names made absolute (lower case, no trailing dot). */
export interface ZoneFileRecord {
  line: number;
  owner: string;
  /** Explicit, or from `$TTL` / the previous explicit TTL; undefined when the file gave none. */
  ttl: number | undefined;
  recordClass: string;
  type: string;
  rdata: ZoneToken[];
  /** The `$ORIGIN` in force, for relative names inside the data. */
  origin: string;
}

/** A line that is not imported, and why (an i18n key with its parameters). */
export interface ZoneLineNote {
  line: number;
  reason: string;
  params?: Record<string, string | number>;
}

const decoder = new TextDecoder();

/** Splits the text into entries: comments gone, parentheses joined, quotes and escapes decoded. */
export function tokenizeZone(text: string): ZoneEntry[] {
  const entries: ZoneEntry[] = [];
  let line = 1;
  let depth = 0;
  let entry: ZoneEntry | undefined;
  let token: ZoneToken | undefined;
  let chars = '';
  /** Octets from `\DDD` escapes, decoded as UTF-8 together (a multi-byte character spans several). */
  let octets: number[] = [];

  const current = (): ZoneEntry => {
    entry ??= { line, blankOwner: false, tokens: [] };
    return entry;
  };
  const flushOctets = () => {
    if (octets.length === 0) return;
    chars += decoder.decode(new Uint8Array(octets));
    octets = [];
  };
  const startToken = (quoted: boolean) => {
    token ??= { text: '', quoted, escapedDot: false };
  };
  const endToken = () => {
    if (!token) return;
    flushOctets();
    token.text = chars;
    current().tokens.push(token);
    token = undefined;
    chars = '';
  };
  const fail = (key: string) => {
    const target = current();
    target.error ??= key;
  };
  const endEntry = () => {
    endToken();
    if (entry && (entry.tokens.length > 0 || entry.error)) entries.push(entry);
    entry = undefined;
  };
  /** Reads an escape at `i` (the backslash); returns the index of its last character. */
  const readEscape = (i: number): number => {
    const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4));
    if (digits) {
      const value = Number(digits[0]);
      if (value > 255) fail('dns.import.syntax_escape');
      octets.push(value & 255);
      return i + 3;
    }
    const next = text[i + 1];
    if (next === undefined || next === '\n') {
      fail('dns.import.syntax_escape');
      return i;
    }
    flushOctets();
    if (next === '.' && token) token.escapedDot = true;
    chars += next;
    return i + 1;
  };

  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (lineStart && depth === 0 && !entry) {
      if (c === ' ' || c === '\t') current().blankOwner = true;
    }
    lineStart = false;
    switch (c) {
      case '\n':
        endToken();
        if (depth === 0) endEntry();
        line++;
        lineStart = true;
        break;
      case '\r':
      case ' ':
      case '\t':
        endToken();
        break;
      case ';':
        endToken();
        while (i + 1 < text.length && text[i + 1] !== '\n') i++;
        break;
      case '(':
        endToken();
        current();
        depth++;
        break;
      case ')':
        endToken();
        if (depth === 0) fail('dns.import.syntax_paren');
        else depth--;
        break;
      case '"': {
        endToken();
        startToken(true);
        current();
        let closed = false;
        for (i++; i < text.length; i++) {
          const q = text[i] as string;
          if (q === '"') {
            closed = true;
            break;
          }
          if (q === '\n') {
            // A quote left open ends at its line: the damage stays on this entry.
            i--;
            break;
          }
          if (q === '\\') i = readEscape(i);
          else {
            flushOctets();
            chars += q;
          }
        }
        if (!closed) fail('dns.import.syntax_quote');
        endToken();
        break;
      }
      case '\\':
        startToken(false);
        current();
        i = readEscape(i);
        break;
      default:
        startToken(false);
        current();
        flushOctets();
        chars += c;
    }
  }
  if (depth > 0) fail('dns.import.syntax_paren');
  endEntry();
  return entries;
}

const CLASSES = new Set(['IN', 'CH', 'HS', 'CS', 'ANY']);
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** A TTL as BIND writes it: seconds, or units (`1h30m`, `2d`); undefined when it is not one. */
export function parseTtl(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text) <= 2_147_483_647 ? Number(text) : undefined;
  if (!/^(\d+[smhdw])+$/i.test(text)) return undefined;
  let total = 0;
  for (const [, n, unit] of text.toLowerCase().matchAll(/(\d+)([smhdw])/g)) {
    total += Number(n) * (UNIT_SECONDS[unit as string] as number);
  }
  return total <= 2_147_483_647 ? total : undefined;
}

/** A name of the file made absolute against `origin` (lower case, no trailing dot); undefined if no name. */
export function absoluteZoneName(token: ZoneToken, origin: string): string | undefined {
  if (token.escapedDot || token.quoted) return undefined;
  const text = token.text.toLowerCase();
  if (text === '@') return origin;
  if (text === '.') return '';
  if (text.endsWith('.')) return text.slice(0, -1);
  return origin ? `${text}.${origin}` : text;
}

/**
 * Reads the entries as records: `$ORIGIN` and `$TTL` applied, owners inherited, TTL and class in
 * either order. Entries that cannot be read are noted with their reason.
 */
export function parseZoneFile(
  text: string,
  origin: string,
  options: { maxRecords: number },
): { records: ZoneFileRecord[]; notes: ZoneLineNote[]; tooMany: boolean } {
  const records: ZoneFileRecord[] = [];
  const notes: ZoneLineNote[] = [];
  let currentOrigin = origin.toLowerCase().replace(/\.$/, '');
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let lastOwner: string | undefined;
  for (const entry of tokenizeZone(text)) {
    if (entry.error) {
      notes.push({ line: entry.line, reason: entry.error });
      continue;
    }
    const [first, ...rest] = entry.tokens as [ZoneToken, ...ZoneToken[]];
    if (!entry.blankOwner && !first.quoted && first.text.startsWith('$')) {
      const directive = first.text.toUpperCase();
      const argument = rest[0];
      if (directive === '$ORIGIN' && argument && rest.length === 1) {
        const name = absoluteZoneName(argument, currentOrigin);
        if (name === undefined) notes.push({ line: entry.line, reason: 'dns.error.name' });
        else currentOrigin = name;
      } else if (directive === '$TTL' && argument && rest.length === 1) {
        const ttl = parseTtl(argument.text);
        if (ttl === undefined) notes.push({ line: entry.line, reason: 'dns.error.ttl' });
        else defaultTtl = ttl;
      } else if (directive === '$INCLUDE') {
        notes.push({ line: entry.line, reason: 'dns.import.include' });
      } else {
        notes.push({ line: entry.line, reason: 'dns.import.directive', params: { directive: first.text } });
      }
      continue;
    }
    const words = entry.blankOwner ? entry.tokens : rest;
    const owner = entry.blankOwner ? (lastOwner ?? currentOrigin) : absoluteZoneName(first, currentOrigin);
    if (owner === undefined) {
      notes.push({ line: entry.line, reason: 'dns.error.name' });
      continue;
    }
    lastOwner = owner;
    let ttl: number | undefined;
    let recordClass: string | undefined;
    let index = 0;
    for (; index < 2 && index < words.length; index++) {
      const word = words[index] as ZoneToken;
      const asTtl = word.quoted ? undefined : parseTtl(word.text);
      if (ttl === undefined && asTtl !== undefined) ttl = asTtl;
      else if (recordClass === undefined && !word.quoted && CLASSES.has(word.text.toUpperCase())) {
        recordClass = word.text.toUpperCase();
      } else break;
    }
    const typeToken = words[index];
    if (!typeToken || typeToken.quoted || !/^[a-z][a-z0-9-]*$/i.test(typeToken.text)) {
      notes.push({ line: entry.line, reason: 'dns.import.syntax' });
      continue;
    }
    if (records.length >= options.maxRecords) return { records, notes, tooMany: true };
    if (ttl !== undefined) lastTtl = ttl;
    records.push({
      line: entry.line,
      owner,
      ttl: ttl ?? defaultTtl ?? lastTtl,
      recordClass: recordClass ?? 'IN',
      type: typeToken.text.toUpperCase(),
      rdata: words.slice(index + 1),
      origin: currentOrigin,
    });
  }
  return { records, notes, tooMany: false };
}
