import { createMailDriver } from '../../drivers/mail/create-mail-driver.ts';
import { type CommandGroup, defineCommand } from '../command.ts';

const purge = defineCommand({
  name: 'purge',
  summary: 'Remove the mail of deleted mailboxes kept longer than PANEL_MAIL_KEEP_DAYS (run it daily)',
  usage: '',
  parse: () => ({}),
  async run({ config, now }) {
    const removed = await createMailDriver(config).purgeDeleted(now());
    return { json: { removed, keepDays: config.mail.keepDays }, text: `${removed} kept mailbox(es) removed.` };
  },
});

export const mailCommands: CommandGroup = {
  name: 'mail',
  summary: 'Mail hosting: housekeeping of deleted mailboxes',
  commands: [purge],
};
