import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { createMailDriver } from '../../drivers/mail/create-mail-driver.ts';
import type { MailDriver } from '../../drivers/mail/mail.driver.ts';
import { type ChangeDelivery, ServiceChanges } from '../../jobs/service-changes.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { MailService } from './mail.service.ts';
import { APPLY_MAIL, MailApplyWorker } from './mail-apply-worker.ts';
import { MailSpamService } from './mail-spam.service.ts';

/** A machine's mail side: its driver, and what applies the services' mailbox changes (the node agent builds only this). */
export function createMailNode(
  db: Db,
  config: AppConfig,
  now: () => number,
  options: { driver?: MailDriver; landed?: WorkLanded } = {},
) {
  const driver = options.driver ?? createMailDriver(config);
  return { driver, worker: new MailApplyWorker(db, driver, now, options.landed) };
}

/** The request side of mailbox changes: through the work log, or run here (default: the CLI, seeds, probes). */
export function mailChanges(
  db: Db,
  node: { worker: MailApplyWorker },
  now: () => number,
  delivery: ChangeDelivery = { inline: true },
): ServiceChanges {
  return new ServiceChanges(db, APPLY_MAIL, node.worker, delivery, now, { undone: 'mail.error.undone' });
}

export function createMailService(
  db: Db,
  config: AppConfig,
  node: { driver: MailDriver; worker: MailApplyWorker },
  brands: BrandService,
  now: () => number,
  options: { permissions?: PermissionService; delivery?: ChangeDelivery } = {},
): MailService {
  return new MailService(
    db,
    options.permissions ?? new PermissionService(db),
    brands,
    node.driver,
    mailChanges(db, node, now, options.delivery),
    new SignonTokens(db, now),
    config.mail,
    now,
  );
}

/** The spam filtering of mail services: its mailbox and list changes go through the same work log as the mailboxes'. */
export function createMailSpamService(
  db: Db,
  node: { driver: MailDriver; worker: MailApplyWorker },
  now: () => number,
  options: { permissions?: PermissionService; delivery?: ChangeDelivery } = {},
): MailSpamService {
  return new MailSpamService(
    db,
    options.permissions ?? new PermissionService(db),
    node.driver,
    mailChanges(db, node, now, options.delivery),
    now,
  );
}
