import { ContactService } from '../../modules/contact/contact.service.ts';
import { createSmtpMailer } from '../../modules/contact/mailer.ts';
import { RateLimiter } from '../../modules/rate-limit/rate-limiter.ts';
import { CliError, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';

interface OutboxEntry {
  id: number;
  kind: string;
  to: string;
  replyTo: string;
  subject: string;
  /** The text (in `--json` only): an unsent invitation's link is passed on from here. */
  body: string;
  createdAt: number;
  sentAt: number | null;
  error: string | null;
}

const list = defineCommand({
  name: 'list',
  summary:
    'The latest 50 messages of the outbox (contact, forgotten password, security notices, invitations; --json: with their text)',
  usage: '[--unsent]',
  options: { unsent: { type: 'boolean' } },
  parse: ({ values }) => ({ unsent: values.unsent === true }),
  async run({ admin }, input: { unsent: boolean }) {
    const messages: OutboxEntry[] = (await admin.listOutbox(input.unsent)).map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.to_address,
      replyTo: row.reply_to,
      subject: row.subject,
      body: row.body,
      createdAt: row.created_at,
      sentAt: row.sent_at,
      error: row.error,
    }));
    return {
      json: messages,
      text: table(
        ['ID', 'CREATED (UTC)', 'KIND', 'TO', 'SUBJECT', 'SENT', 'ERROR'],
        messages.map((m) => [m.id, timestamp(m.createdAt), m.kind, m.to, m.subject, timestamp(m.sentAt), m.error]),
      ),
    };
  },
});

const send = defineCommand({
  name: 'send',
  summary: 'Retry the unsent messages by SMTP (PANEL_SMTP_URL); failures stay in the outbox with their error',
  usage: '',
  parse: () => ({}),
  async run({ admin, config, runtime, now }) {
    const mailer = createSmtpMailer(config.smtp.url);
    if (!mailer) throw new CliError('PANEL_SMTP_URL is not configured: the messages stay in the outbox');
    // The limiter is never consulted by sendQueued; ContactService just needs one to exist.
    const contact = new ContactService(
      runtime.db,
      mailer,
      config.smtp.from,
      new RateLimiter(runtime.db, now),
      { bucket: 'form', max: 1, windowSeconds: 1 },
      now,
    );
    const sent: number[] = [];
    const failed: { id: number; error: string }[] = [];
    const skipped: number[] = [];
    try {
      const unsent = (await admin.listOutbox(true, 1000)).reverse();
      for (const row of unsent) {
        if (!row.to_address) {
          skipped.push(row.id);
          continue;
        }
        const warnings: string[] = [];
        const ok = await contact.sendQueued(
          row.id,
          { to: row.to_address, replyTo: row.reply_to, subject: row.subject, text: row.body },
          { warn: (details: { err?: string }) => warnings.push(details.err ?? 'unknown error') },
        );
        if (ok) sent.push(row.id);
        else failed.push({ id: row.id, error: warnings.join('; ') });
      }
    } finally {
      mailer.close();
    }
    const lines = [
      `${sent.length} sent, ${failed.length} failed, ${skipped.length} skipped (brand without contact e-mail)`,
    ];
    for (const f of failed) lines.push(`  #${f.id}: ${f.error}`);
    return { json: { sent, failed, skipped }, text: lines.join('\n') };
  },
});

export const outboxCommands: CommandGroup = {
  name: 'outbox',
  summary: 'Messages from customers waiting for (or sent by) SMTP',
  commands: [list, send],
};
