import { isSpamSender, spamSenderProblem } from '@panel247/contract/mail-spam';
import { describe, expect, it } from 'vitest';
import { spamSieveScript } from '../../src/drivers/mail/spam-sieve-script.ts';

const lines = (script: string) => script.split('\r\n');

describe('the mailbox’s spam filter as Sieve', () => {
  it('scores every message when there are no lists, compares whole points, and moves spam to Junk', () => {
    const script = spamSieveScript({ mode: 'junk', threshold: 7, allow: [], block: [] });
    expect(script.endsWith('\r\n')).toBe(true);
    expect(lines(script).slice(1, 4)).toEqual([
      'require ["vnd.dovecot.execute", "variables", "regex", "relational", "comparator-i;ascii-numeric", "editheader", "fileinto", "mailbox"];',
      'deleteheader "X-Spam";',
      'deleteheader "X-Spam-Score";',
    ]);
    expect(script).toContain('if execute :pipe :output "score" "panel247-spam-score" {');
    expect(script).toContain(`if string :regex "\${score}" "^([0-9]+)(\\\\.[0-9]+)?" {`);
    expect(script).toContain(`if string :value "ge" :comparator "i;ascii-numeric" "\${1}" "7" {`);
    expect(script).toContain('  fileinto :create "Junk";\r\n  stop;');
    expect(script).not.toContain('address');
  });

  it('only tags in tag mode: no folder, and the mailbox’s own script still runs', () => {
    const script = spamSieveScript({ mode: 'tag', threshold: 6, allow: [], block: [] });
    expect(script).not.toMatch(/fileinto|stop;|"mailbox"/);
    expect(script).toContain('addheader "X-Spam" "Yes";');
  });

  it('skips the allowed senders and judges the blocked ones without asking rspamd', () => {
    const script = spamSieveScript({
      mode: 'junk',
      threshold: 6,
      allow: ['socio.example.org', 'ana@example.com'],
      block: ['pesado@example.net'],
    });
    expect(script).toContain(
      'if not anyof(address :all :is "from" ["ana@example.com"], address :domain :is "from" ["socio.example.org"], address :domain :matches "from" ["*.socio.example.org"]) {',
    );
    expect(script).toContain(
      '  if anyof(address :all :is "from" ["pesado@example.net"]) {\r\n    set "spam" "yes";\r\n  } elsif execute',
    );
  });
});

describe('a sender of the allow and block lists', () => {
  it('is an address or a domain, lower case', () => {
    for (const sender of ['example.org', 'news.example.org', 'ana@example.org', "o'neil+x@mail.example.co.uk"])
      expect(isSpamSender(sender), sender).toBe(true);
    for (const sender of [
      '',
      'example',
      '@example.org',
      'a@b',
      'a b@example.org',
      '"a"@example.org',
      'a@-x.org',
      'Ana@Example.org',
      `${'a'.repeat(65)}@example.org`,
    ])
      expect(isSpamSender(sender), sender).toBe(false);
  });

  it('is checked as typed: control characters first, then trimmed and lower-cased', () => {
    expect(spamSenderProblem(' Ana@Example.org ')).toBeUndefined();
    expect(spamSenderProblem('ana@example.org\n')).toBe('validation.control_chars');
    expect(spamSenderProblem('   ')).toBe('validation.required');
    expect(spamSenderProblem('nadie')).toBe('mail.error.spam_sender');
  });
});
