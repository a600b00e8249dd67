import { SPAM_FOLDER } from '@panel247/contract/mail-spam';
import { PANEL_SCRIPT_HEADER, sieveString } from './sieve-script.ts';

/** A mailbox's spam filtering as its Sieve filter runs it (the mail service validated every value). */
export interface SpamFilter {
  mode: 'junk' | 'tag';
  /** Whole points of rspamd's score from which a message is spam. */
  threshold: number;
  /** The service's lists: addresses (local@domain) and domains, lower case. */
  allow: string[];
  block: string[];
}

/**
 * The program of Dovecot's `sieve_execute_bin_dir` that asks rspamd for the score of the message
 * on its input and prints it (deploy/dovecot/panel247-spam-score.template).
 */
export const SPAM_SCORE_PROGRAM = 'panel247-spam-score';

/** Whether the From address is one of these senders: the address itself, or its domain or a subdomain of it. */
function fromAnyOf(senders: string[]): string | null {
  if (senders.length === 0) return null;
  const addresses = senders.filter((sender) => sender.includes('@'));
  const domains = senders.filter((sender) => !sender.includes('@'));
  const list = (values: string[]) => `[${values.map(sieveString).join(', ')}]`;
  const tests: string[] = [];
  if (addresses.length > 0) tests.push(`address :all :is "from" ${list(addresses)}`);
  if (domains.length > 0) {
    tests.push(`address :domain :is "from" ${list(domains)}`);
    tests.push(`address :domain :matches "from" ${list(domains.map((domain) => `*.${domain}`))}`);
  }
  return `anyof(${tests.join(', ')})`;
}

/**
 * The mailbox's spam filter, which Dovecot runs before its own script (`sieve_before`): a sender
 * on the allow list is left alone; one on the block list is spam; any other message is scored by
 * rspamd (through SPAM_SCORE_PROGRAM) and is spam from the threshold on. Spam gets `X-Spam: Yes`
 * and its score, then goes to Junk and nothing else runs (no autoreply to it, no forward of it),
 * or, tag only, stays on its way. The sender's own X-Spam headers are dropped first: only the
 * filter's are believed. A score is compared on its whole points with Sieve's numeric comparator,
 * which takes digits only (a negative score never matches the pattern: not spam), and a scanner
 * that does not answer makes the `execute` test false: the message is delivered unfiltered.
 */
export function spamSieveScript(filter: SpamFilter): string {
  const verdict = [
    `if string :regex "\${score}" ${sieveString('^([0-9]+)(\\.[0-9]+)?')} {`,
    `  set "points" "\${0}";`,
    `  if string :value "ge" :comparator "i;ascii-numeric" "\${1}" ${sieveString(String(Math.trunc(filter.threshold)))} {`,
    '    set "spam" "yes";',
    '  }',
    '}',
  ];
  const scan = `execute :pipe :output "score" ${sieveString(SPAM_SCORE_PROGRAM)}`;
  const blocked = fromAnyOf(filter.block);
  const judge = blocked
    ? [`if ${blocked} {`, '  set "spam" "yes";', `} elsif ${scan} {`, ...verdict.map((l) => `  ${l}`), '}']
    : [`if ${scan} {`, ...verdict.map((l) => `  ${l}`), '}'];
  const act = [
    `if string :is "\${spam}" "yes" {`,
    '  addheader "X-Spam" "Yes";',
    `  if not string :is "\${points}" "" {`,
    `    addheader "X-Spam-Score" "\${points}";`,
    '  }',
    ...(filter.mode === 'junk' ? [`  fileinto :create ${sieveString(SPAM_FOLDER)};`, '  stop;'] : []),
    '}',
  ];
  const allowed = fromAnyOf(filter.allow);
  const body = allowed ? [`if not ${allowed} {`, ...[...judge, ...act].map((l) => `  ${l}`), '}'] : [...judge, ...act];
  const extensions = [
    'vnd.dovecot.execute',
    'variables',
    'regex',
    'relational',
    'comparator-i;ascii-numeric',
    'editheader',
    ...(filter.mode === 'junk' ? ['fileinto', 'mailbox'] : []),
  ];
  const lines = [
    PANEL_SCRIPT_HEADER,
    `require [${extensions.map(sieveString).join(', ')}];`,
    'deleteheader "X-Spam";',
    'deleteheader "X-Spam-Score";',
    ...body,
  ];
  return `${lines.join('\r\n')}\r\n`;
}
