import type { AppConfig } from '../../config.ts';
import { DovecotMailDriver } from './dovecot.driver.ts';
import { EmbeddedMailDriver } from './embedded.driver.ts';
import type { MailDriver } from './mail.driver.ts';
import { Maildirs } from './maildirs.ts';

export function createMailDriver(config: AppConfig): MailDriver {
  const mail = config.mail;
  const maildirs = new Maildirs(mail.root as string);
  const settings = { deleteMode: mail.deleteMode, keepDays: mail.keepDays };
  if (mail.driver === 'dovecot') return new DovecotMailDriver(maildirs, settings, mail.doveadmConfig as string);
  return new EmbeddedMailDriver(maildirs, settings);
}
