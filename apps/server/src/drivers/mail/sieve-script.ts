import type { SpamFilter } from './spam-sieve-script.ts';

/**
 * A mailbox's autoresponder and forwarding as a Sieve script (RFC 5228) for Dovecot's Pigeonhole:
 * `vacation` (RFC 5230) answers each sender once per period, `currentdate` (RFC 5260, with the
 * relational comparisons of RFC 5231) bounds it to its dates, `redirect` forwards, with `:copy`
 * (RFC 3894) when the mailbox keeps its own copy. No library writes Sieve for Node, and the
 * script is a handful of fixed commands around quoted strings, so it is written here; every value
 * was validated by the mail service and is still escaped as a Sieve quoted string.
 */

export interface AutoreplyRule {
  subject: string;
  body: string;
  /** 'YYYY-MM-DD' or '' */
  start: string;
  end: string;
  days: number;
}

export interface MailboxFilter {
  autoreply: AutoreplyRule | null;
  forward: { targets: string[]; keepCopy: boolean } | null;
  /** Its spam filtering, a script of its own (spam-sieve-script.ts); null: off. */
  spam: SpamFilter | null;
}

/** The first line of every script the panel writes: how a script is known to be the panel's. */
export const PANEL_SCRIPT_HEADER =
  '# Panel247: written from the mailbox settings; edits here are replaced at the next save.';

/** A Sieve quoted string: backslash and double quote escaped, line breaks as CRLF. */
export function sieveString(value: string): string {
  const normalized = value.replace(/\r\n?/g, '\n').replace(/\n/g, '\r\n');
  return `"${normalized.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function sieveScript(filter: MailboxFilter): string {
  const lines = [PANEL_SCRIPT_HEADER];
  const extensions = new Set<string>();
  const { autoreply, forward } = filter;
  if (autoreply) {
    extensions.add('vacation');
    const vacation = `vacation :days ${Math.trunc(autoreply.days)} :subject ${sieveString(autoreply.subject)} ${sieveString(autoreply.body)};`;
    const bounds: string[] = [];
    if (autoreply.start) bounds.push(`currentdate :value "ge" "date" ${sieveString(autoreply.start)}`);
    if (autoreply.end) bounds.push(`currentdate :value "le" "date" ${sieveString(autoreply.end)}`);
    if (bounds.length > 0) {
      extensions.add('date');
      extensions.add('relational');
      lines.push(`if allof(${bounds.join(', ')}) {`, `  ${vacation}`, '}');
    } else {
      lines.push(vacation);
    }
  }
  if (forward && forward.targets.length > 0) {
    if (forward.keepCopy) extensions.add('copy');
    for (const target of forward.targets)
      lines.push(`redirect ${forward.keepCopy ? ':copy ' : ''}${sieveString(target)};`);
  }
  if (extensions.size > 0) lines.splice(1, 0, `require [${[...extensions].map(sieveString).join(', ')}];`);
  return `${lines.join('\r\n')}\r\n`;
}
