import type {
  Alias,
  MailApplying,
  Mailbox,
  MailboxRules,
  MailboxRulesInput,
  MailListData,
  MailListParams,
  MailListRow,
  WebmailLoginData,
} from '@panel247/contract/mail';
import { autoreplyProblems, mailboxQuotaProblem, mailLocalPartProblem } from '@panel247/contract/mail-rules';
import { servicePasswordProblem } from '@panel247/contract/password-rules';
import type { Db } from '../../db/database.ts';
import { listWindowOf } from '../../db/list-query.ts';
import type { MailboxAddress, MailDriver } from '../../drivers/mail/mail.driver.ts';
import {
  ConflictError,
  FieldErrors,
  ForbiddenError,
  fieldProblem,
  NodeUnreachableError,
  NotFoundError,
} from '../../errors.ts';
import type { ServiceChanges } from '../../jobs/service-changes.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import { changedFields } from '../activity/activity-summary.ts';
import type { Actor } from '../auth/actor.ts';
import { hashPassword } from '../auth/password-hasher.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { onServer, PlacementService } from '../nodes/placement.service.ts';
import type { AccessNeed, PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { type SignonTokens, sharedKeyMatches } from '../signon/signon-tokens.ts';
import { connectionHosts, type MailClientPorts } from './connection-hosts.ts';
import { mailRepository } from './mail.repository.ts';
import { aliasTargets, forwardTargets } from './mail-targets.ts';
import { changeMail, MailboxProvisioning, MIB } from './mailbox-provisioning.ts';

/** What a list shows of a mailbox's autoresponder and forwarding (no row: neither). */
type RulesSummary = { autoreply: number; forward_targets: string } | undefined;

function targetList(stored: string): string[] {
  return stored === '' ? [] : stored.split(',');
}

export interface MailSettings extends MailClientPorts {
  defaultQuotaMb: number;
  webmailUrl: string;
  webmailKey?: string;
}

/**
 * Mailboxes and aliases of a service. Dovecot and Postfix read them through SQL views, so a row
 * written here is live at once: a created mailbox logs in over IMAP, a deleted one is refused.
 * The rest (caches, Sieve scripts, the mail's folders) is the mail server's: each mailbox change
 * writes an entry of the work log with its rows, and the service's `mail.apply-service` job
 * (MailApplyWorker, on the node agent) tells the mail driver; the call waits a short budget for it.
 * Mailbox passwords are stored only as the argon2id hash Dovecot verifies ({ARGON2ID}).
 */
export class MailService {
  /** New mailboxes' rows and the driver's copy, once a call's input is checked. */
  private readonly provisioning: MailboxProvisioning;

  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly brands: BrandService,
    private readonly driver: MailDriver,
    private readonly changes: ServiceChanges,
    private readonly signon: SignonTokens,
    private readonly settings: MailSettings,
    private readonly now: () => number,
  ) {
    this.provisioning = new MailboxProvisioning(db, changes, now);
  }

  /** Whether the service's mailbox changes are all on its mail server (the mail view shows it). */
  /**
   * The script the mailbox's owner activated elsewhere, if any. When the mail server does not
   * answer now, none is known: a save goes on, and the server's filter step leaves such a script
   * alone unless the change says to replace it (mail-apply-worker.ts).
   */
  private foreignFilter(address: { domain: string; localPart: string }): Promise<string | null> {
    return this.driver.foreignFilter(address).catch((error: unknown) => {
      if (error instanceof NodeUnreachableError) return null;
      throw error;
    });
  }

  private applying(serviceId: number): Promise<MailApplying> {
    return this.changes.applying<never>(serviceId);
  }

  /** The service's mailbox job now (the customer's "try again"): whether every change is on the server. */
  async applyNow(actor: Actor, id: number): Promise<{ applying: MailApplying; applied: boolean }> {
    // The mailbox changes are the accounts' right's: who may make them may push them on.
    const service = await this.service(actor, id, 'servicemail_accounts', 'action');
    const applied = await this.changes.applyNow({ ...service, actor });
    return { applying: await this.applying(id), applied };
  }

  /** Sends the job of every service with mailbox changes still to apply (the round of pending changes). */
  reapply(): Promise<number> {
    return this.changes.reapply();
  }

  private async service(
    actor: Actor,
    id: number,
    key: 'servicemail' | 'servicemail_accounts' | 'servicemail_alias',
    need: AccessNeed,
  ) {
    const resource = await this.permissions.authorize(actor, id, key, need);
    return { id, domain: resource.referencePunycode, levels: resource.levels };
  }

  /** `summaries` holds the rules of a list's mailboxes, read at once; one mailbox reads its own. */
  private async toMailbox(
    domain: string,
    row: { id: number; local_part: string; quota_bytes: number; eliminable: number },
    summaries?: Map<number, RulesSummary>,
  ): Promise<Mailbox> {
    const rules = summaries ? summaries.get(row.id) : await mailRepository.rules(this.db, row.id);
    return {
      id: row.id,
      user: row.local_part,
      quota: row.quota_bytes,
      usage: await this.driver.usage({ domain, localPart: row.local_part }),
      eliminable: row.eliminable === 1,
      autoreply: rules?.autoreply === 1,
      forward: targetList(rules?.forward_targets ?? ''),
    };
  }

  private async summaries(ids: number[]): Promise<Map<number, RulesSummary>> {
    const rows = await mailRepository.rulesSummaries(this.db, ids);
    return new Map(rows.map((row) => [row.mailbox_id, row]));
  }

  private toAlias(domain: string, row: { id: number; local_part: string; targets: string; eliminable: number }): Alias {
    return {
      id: row.id,
      alias: row.local_part,
      referencePunycode: domain,
      name: row.targets,
      eliminable: row.eliminable === 1,
    };
  }

  async mailboxes(actor: Actor, id: number): Promise<Mailbox[]> {
    const service = await this.service(actor, id, 'servicemail', 'visible');
    if (service.levels.servicemail_accounts === 'disabled') return [];
    const rows = await mailRepository.mailboxes(this.db, id);
    const summaries = await this.summaries(rows.map((row) => row.id));
    return Promise.all(rows.map((row) => this.toMailbox(service.domain, row, summaries)));
  }

  /**
   * The mail view's list: one page of accounts and aliases together, each kind only for those
   * who may see it. Only the page's mailboxes have their usage read.
   */
  async list(actor: Actor, params: MailListParams): Promise<MailListData> {
    const service = await this.service(actor, params.id, 'servicemail', 'visible');
    const kinds = {
      accounts: params.type !== 'alias' && service.levels.servicemail_accounts !== 'disabled',
      aliases: params.type !== 'account' && service.levels.servicemail_alias !== 'disabled',
    };
    const { rows, total } = await mailRepository.mailPage(this.db, params.id, kinds, listWindowOf(params));
    const summaries = await this.summaries(rows.filter((row) => row.kind === 'account').map((row) => row.id));
    const mail = await Promise.all(
      rows.map(
        async (row): Promise<MailListRow> =>
          row.kind === 'account'
            ? { type: 'account', correo: await this.toMailbox(service.domain, row, summaries) }
            : { type: 'alias', alias: this.toAlias(service.domain, row) },
      ),
    );
    return { mail, total, applying: await this.applying(params.id) };
  }

  async mailbox(actor: Actor, id: number, accountId: number): Promise<Mailbox> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'visible');
    const row = await mailRepository.findMailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    return this.toMailbox(service.domain, row);
  }

  async aliases(actor: Actor, id: number): Promise<Alias[]> {
    const service = await this.service(actor, id, 'servicemail', 'visible');
    if (service.levels.servicemail_alias === 'disabled') return [];
    return (await mailRepository.aliases(this.db, id)).map((row) => this.toAlias(service.domain, row));
  }

  async alias(actor: Actor, id: number, aliasId: number): Promise<Alias> {
    const service = await this.service(actor, id, 'servicemail_alias', 'visible');
    const row = await mailRepository.findAlias(this.db, id, aliasId);
    if (!row) throw new NotFoundError();
    return this.toAlias(service.domain, row);
  }

  /**
   * The provider suspended the service or lifted it: the mail server asks again whether each of
   * its mailboxes may log in (mail_users_view's `nologin`). Its mail keeps arriving either way.
   */
  async loginsChanged(service: { id: number; domain: string }): Promise<void> {
    await changeMail(this.changes, service, { step: 'logins' }, async () => undefined);
  }

  async createMailbox(
    actor: Actor,
    id: number,
    params: { name: string; password: string; quota?: number },
  ): Promise<Mailbox> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'action');
    const name = params.name.trim().toLowerCase();
    // Without a quota asked for, the default one, or the plan's largest mailbox when that is smaller.
    const limits = await planLimits.of(this.db, id);
    const quotaMb =
      params.quota ?? Math.min(this.settings.defaultQuotaMb, limits.mailboxMb ?? Number.POSITIVE_INFINITY);
    const errors = [
      ...fieldProblem('name', mailLocalPartProblem(params.name, false)),
      ...fieldProblem('password', servicePasswordProblem(params.password)),
      ...fieldProblem('quota', mailboxQuotaProblem(quotaMb)),
    ];
    if (errors.length > 0) throw new FieldErrors(errors);
    planLimits.admitMailboxSize(limits, quotaMb);
    if (await mailRepository.addressTaken(this.db, id, name)) throw FieldErrors.one('name', 'mail.error.taken');
    return this.toMailbox(
      service.domain,
      await this.provisioning.create({ ...service, actor }, name, params.password, quotaMb),
    );
  }

  async changePassword(actor: Actor, id: number, accountId: number, password: string): Promise<Mailbox> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'action');
    const row = await mailRepository.findMailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    const errors = fieldProblem('password', servicePasswordProblem(password));
    if (errors.length > 0) throw new FieldErrors(errors);
    const passwordHash = `{ARGON2ID}${await hashPassword(password)}`;
    await changeMail(this.changes, { ...service, actor }, { step: 'password', localPart: row.local_part }, (trx) =>
      mailRepository.setPassword(trx, id, accountId, passwordHash),
    );
    return this.toMailbox(service.domain, row);
  }

  /** A new quota within the plan's maximum; Dovecot's quota plugin enforces it from the next delivery. */
  async setQuota(actor: Actor, id: number, accountId: number, quotaMb: number | undefined): Promise<Mailbox> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'action');
    const row = await mailRepository.findMailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    const errors = fieldProblem('quota', mailboxQuotaProblem(quotaMb ?? Number.NaN));
    if (errors.length > 0) throw new FieldErrors(errors);
    planLimits.admitMailboxSize(await planLimits.of(this.db, id), quotaMb as number);
    const saved = await changeMail(
      this.changes,
      { ...service, actor },
      { step: 'quota', localPart: row.local_part },
      (trx) => mailRepository.setQuota(trx, id, accountId, (quotaMb as number) * MIB),
    );
    return this.toMailbox(service.domain, saved);
  }

  /** A mailbox's autoresponder and forwarding, and the name of a script activated elsewhere if any. */
  async rules(actor: Actor, id: number, accountId: number): Promise<MailboxRules> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'visible');
    const row = await mailRepository.findMailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    return this.rulesOf(row.id, { domain: service.domain, localPart: row.local_part });
  }

  private async rulesOf(mailboxId: number, address: MailboxAddress): Promise<MailboxRules> {
    const rules = await mailRepository.rules(this.db, mailboxId);
    return {
      autoreply: {
        enabled: rules?.autoreply === 1,
        subject: rules?.subject ?? '',
        body: rules?.body ?? '',
        start: rules?.start_date ?? '',
        end: rules?.end_date ?? '',
        days: rules?.days ?? 1,
      },
      forward: { targets: targetList(rules?.forward_targets ?? ''), keepCopy: rules ? rules.keep_copy === 1 : true },
      foreignScript: await this.foreignFilter(address),
    };
  }

  /**
   * Saves the autoresponder and forwarding and has the driver write them as the mailbox's Sieve
   * script. A script its owner activated elsewhere is not switched off silently: the save is
   * refused naming it, unless `replaceForeign` says the user agreed (the driver keeps the file).
   */
  async saveRules(actor: Actor, id: number, accountId: number, input: MailboxRulesInput): Promise<MailboxRules> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'action');
    const row = await mailRepository.findMailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    const address = { domain: service.domain, localPart: row.local_part };
    const fields = {
      subject: input.subject.trim(),
      body: input.body.replace(/\s+$/, ''),
      start: input.start.trim(),
      end: input.end.trim(),
      days: input.days,
    };
    // switched off, the texts are kept as typed for later, and only need to be valid when present
    const problems = Object.entries(autoreplyProblems(fields)).filter(
      ([, key]) => input.autoreply || key !== 'validation.required',
    );
    const errors = problems.map(([field, messageKey]) => ({ field, messageKey: messageKey as string }));
    if (errors.length > 0) throw new FieldErrors(errors);
    const forward = forwardTargets(input.forward, `${row.local_part}@${service.domain}`);
    const foreign = await this.foreignFilter(address);
    if (foreign && !input.replaceForeign) throw new ConflictError('mail.error.sieve_foreign', { name: foreign });
    const stored = {
      autoreply: input.autoreply ? 1 : 0,
      subject: fields.subject,
      body: fields.body,
      start_date: fields.start,
      end_date: fields.end,
      days: fields.days,
      forward_targets: forward.join(','),
      keep_copy: input.keepCopy ? 1 : 0,
    };
    await changeMail(
      this.changes,
      { ...service, actor },
      { step: 'filter', localPart: row.local_part, replaceForeign: input.replaceForeign },
      (trx) => mailRepository.saveRules(trx, { mailbox_id: row.id, ...stored, updated_at: this.now() }),
    );
    return this.rulesOf(row.id, address);
  }

  async deleteMailbox(actor: Actor, id: number, accountId: number): Promise<void> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'action');
    const row = await mailRepository.findMailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('mail.error.not_eliminable');
    noteChangeDetail(actor.activity, { target: `${row.local_part}@${service.domain}` });
    await changeMail(this.changes, { ...service, actor }, { step: 'deleted', localPart: row.local_part }, (trx) =>
      mailRepository.deleteMailbox(trx, id, accountId),
    );
  }

  async createAlias(actor: Actor, id: number, params: { name: string; target: string[] }): Promise<Alias> {
    const service = await this.service(actor, id, 'servicemail_alias', 'action');
    const name = params.name.trim().toLowerCase();
    const nameErrors = fieldProblem('name', mailLocalPartProblem(params.name, true));
    if (nameErrors.length > 0) throw new FieldErrors(nameErrors);
    const targets = aliasTargets(params.target);
    if (await mailRepository.addressTaken(this.db, id, name)) throw FieldErrors.one('name', 'mail.error.taken');
    const row = await this.db.transaction().execute(async (trx) => {
      await planLimits.admit(trx, id, 'aliases');
      return mailRepository.insertAlias(trx, {
        service_id: id,
        local_part: name,
        targets: targets.join(','),
        created_at: this.now(),
      });
    });
    return this.toAlias(service.domain, row);
  }

  async saveAlias(actor: Actor, id: number, aliasId: number, target: string[]): Promise<Alias> {
    const service = await this.service(actor, id, 'servicemail_alias', 'action');
    const before = await mailRepository.findAlias(this.db, id, aliasId);
    if (!before) throw new NotFoundError();
    const row = await mailRepository.setTargets(this.db, id, aliasId, aliasTargets(target).join(','));
    noteChangeDetail(actor.activity, {
      target: `${row.local_part}@${service.domain}`,
      changes: changedFields({ target: before.targets }, { target: row.targets }),
    });
    return this.toAlias(service.domain, row);
  }

  async deleteAlias(actor: Actor, id: number, aliasId: number): Promise<void> {
    const service = await this.service(actor, id, 'servicemail_alias', 'action');
    const row = await mailRepository.findAlias(this.db, id, aliasId);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('mail.error.not_eliminable');
    noteChangeDetail(actor.activity, { target: `${row.local_part}@${service.domain}` });
    await mailRepository.deleteAlias(this.db, id, aliasId);
  }

  async connection(actor: Actor, id: number) {
    const service = await this.service(actor, id, 'servicemail', 'visible');
    const brand = await this.brands.byId(actor.brandId);
    const servers = await new PlacementService(this.db, this.now).serversOf(id);
    return connectionHosts(service.domain, brand.sslHost, this.settings, servers);
  }

  /**
   * WebMail sign-on: a one-time token (60 s) the browser posts to the brand's WebMail. The WebMail
   * redeems it server-to-server (`redeemToken`), then opens IMAP as the mailbox through Dovecot's
   * master user (deploy/dovecot, deploy/webmail). No password ever travels in a URL or a form.
   * The spec shows WebMail to all with visibility, but WebMail reads, sends and deletes as the
   * mailbox: only the accounts right (action) gets the token, not only the mail area's.
   */
  async webmailLogin(actor: Actor, id: number, accountId: number): Promise<WebmailLoginData> {
    const service = await this.service(actor, id, 'servicemail_accounts', 'secret');
    if (service.levels.servicemail === 'disabled') throw new NotFoundError();
    const row = await mailRepository.findMailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    // Without the shared key no WebMail can redeem the token: say so instead of opening a dead page.
    if (!this.settings.webmailKey) throw new ConflictError('mail.error.webmail_off');
    const token = await this.signon.issue('webmail', row.id);
    const brand = await this.brands.byId(actor.brandId);
    const { mail } = await new PlacementService(this.db, this.now).serversOf(id);
    const action = onServer(brand.webmailHost ? `https://${brand.webmailHost}/` : this.settings.webmailUrl, mail);
    return this.driver.webmailSignon({ domain: service.domain, localPart: row.local_part }, token, action);
  }

  /** For the WebMail's server: the mailbox a token opens, once. */
  async redeemToken(key: string, token: string): Promise<string> {
    if (!sharedKeyMatches(this.settings.webmailKey, key)) throw new ForbiddenError();
    const mailboxId = await this.signon.take('webmail', token);
    const user = mailboxId === undefined ? undefined : await mailRepository.mailboxAddress(this.db, mailboxId);
    if (!user) throw new NotFoundError('signon.error.token');
    return user;
  }
}
