import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { Maildirs } from '../../drivers/mail/maildirs.ts';
import type { NodeHomes } from '../../node-channel/channel-server.ts';
import { mailRepository } from './mail.repository.ts';

/**
 * The mail domains' folders under this server's mail root (<root>/<domain>, each mailbox's home
 * below it), as the node channel offers them to a mail move's two ends: read whole as a tar on
 * the server the mail leaves, written from one on the server it goes to, always as the mail user
 * that owns the root (the one Dovecot runs as). None without a mail root.
 */
export function nodeMailFolders(db: Db, config: AppConfig): NodeHomes | undefined {
  const root = config.mail.root;
  if (!root) return undefined;
  const maildirs = new Maildirs(root);
  return {
    root,
    hosted: (domain) => mailRepository.hasMailDomain(db, domain),
    ensure: (domain) => maildirs.ensureDomain(domain),
    ownerOf: () => maildirs.owner(),
  };
}
