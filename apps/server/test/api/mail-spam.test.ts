import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ActivityListData } from '@panel247/contract/activity';
import type { Mailbox } from '@panel247/contract/mail';
import type { MailboxSpamData, SpamData, SpamSenderData } from '@panel247/contract/mail-spam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailDriver } from '../../src/drivers/mail/create-mail-driver.ts';
import { translate } from '../../src/i18n/messages.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { syncMail } from '../../src/modules/mail/mail-sync.ts';
import { createPlansService } from '../../src/modules/plans/create-plans-service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('spam filtering on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let readerCookie: string;
  let noneCookie: string;
  let id: number;
  let otherId: number;
  let box: Mailbox;
  const domain = 'antispam.test';

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-spam-'));
    t = await buildTestApp(kind, { config: { 'mail.root': root } });
    account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasMail: true }, 'otro.test': { hasMail: true } },
    });
    id = account.resources[domain] as number;
    otherId = account.resources['otro.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const reader = await buildUser(t.database.db, account, 'spam-reader', {
      [domain]: { ...allKeys('disabled'), servicemail: 'read', servicemail_spam: 'read' },
    });
    readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const none = await buildUser(t.database.db, account, 'spam-none', {
      [domain]: { ...allKeys('disabled'), servicemail: 'write', servicemail_accounts: 'write' },
    });
    noneCookie = await t.login(account.domainName, none.username, none.password);
    const made = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'info', password: 'a mailbox password' },
      { cookie },
    );
    box = made.body.data.correo;
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = <T>(url: string, params: Record<string, string> = {}, as = cookie) =>
    t.call<T>('POST', `service/${id}/${url}`, params, { cookie: as });
  const overview = async (as = cookie) => (await call<SpamData>('mail/spam/', {}, as)).body.data;
  const filterFile = () => path.join(t.config.mail.root as string, domain, 'info', 'panel247-spam.sieve');
  const filterText = () => readFileSync(filterFile(), 'utf8');
  const save = (params: Record<string, string>) => call<MailboxSpamData>(`correo/${box.id}/spam/save/`, params);
  const addSender = (list: string, sender: string, as = cookie) =>
    call<SpamSenderData>('mail/spam/senders/add/', { list, sender }, as);

  it('starts with every mailbox off at the default threshold, no lists and nothing filtered', async () => {
    expect(await overview()).toEqual({
      mailboxes: [{ id: box.id, user: 'info', mode: 'off', threshold: 6 }],
      senders: [],
      maxSenders: 200,
      filtered: [],
    });
  });

  it('switches a mailbox to Junk at its threshold: the mailbox’s spam filter is written, and the change logged', async () => {
    const saved = await save({ mode: 'junk', threshold: '5' });
    expect(saved.body.system.errors).toEqual([]);
    expect(saved.body.data.mailbox).toEqual({ id: box.id, user: 'info', mode: 'junk', threshold: 5 });
    expect(saved.body.system.info).toEqual([translate('es', 'mail.spam_saved')]);
    const script = filterText();
    expect(script).toContain('execute :pipe :output "score" "panel247-spam-score"');
    expect(script).toContain(`"i;ascii-numeric" "\${1}" "5"`);
    expect(script).toContain('fileinto :create "Junk";');
    expect((await overview(readerCookie)).mailboxes[0]).toMatchObject({ mode: 'junk', threshold: 5 });
    const log = await t.call<ActivityListData>('GET', 'activity/list/', { area: 'mail' }, { cookie });
    const entry = log.body.data.entries[0];
    expect(entry?.target).toBe(`info@${domain}`);
    expect(entry?.changes).toEqual(
      expect.arrayContaining([
        { field: 'spam', before: 'off', after: 'junk' },
        { field: 'threshold', before: '6', after: '5' },
      ]),
    );

    const tagged = await save({ mode: 'tag', threshold: '8' });
    expect(tagged.body.system.errors).toEqual([]);
    expect(filterText()).not.toContain('fileinto');
    expect(filterText()).toContain(`"\${1}" "8"`);
  });

  it('refuses a threshold outside 1 to 15 and a mode it does not know, on their fields', async () => {
    for (const threshold of ['0', '16', '5.5', 'x']) {
      const refused = await save({ mode: 'junk', threshold });
      expect(refused.response.statusCode, threshold).toBe(400);
      expect(refused.body.system.inputs).toEqual(['threshold']);
      expect(refused.body.system.errors).toEqual([translate('es', 'mail.error.spam_threshold')]);
    }
    const mode = await save({ mode: 'delete', threshold: '6' });
    expect(mode.body.system.inputs).toEqual(['mode']);
    expect((await overview()).mailboxes[0]).toMatchObject({ mode: 'tag', threshold: 8 });
  });

  it('keeps allow and block lists of addresses and domains, each sender on one list, in every filter', async () => {
    const allowed = await addSender('allow', '  Socio.Example.ORG ');
    expect(allowed.body.system.errors).toEqual([]);
    expect(allowed.body.data.sender).toMatchObject({ list: 'allow', sender: 'socio.example.org' });
    const blocked = await addSender('block', 'Pesado@Example.net');
    expect(blocked.body.data.sender).toMatchObject({ list: 'block', sender: 'pesado@example.net' });
    const script = filterText();
    expect(script).toContain('address :domain :is "from" ["socio.example.org"]');
    expect(script).toContain('address :domain :matches "from" ["*.socio.example.org"]');
    expect(script).toContain('address :all :is "from" ["pesado@example.net"]');

    const cases: [string, string, string][] = [
      ['block', '', 'validation.required'],
      ['block', 'no es nadie', 'mail.error.spam_sender'],
      ['block', 'a@b', 'mail.error.spam_sender'],
      ['block', '"x"@example.org', 'mail.error.spam_sender'],
      ['block', 'bad\u0007@example.org', 'validation.control_chars'],
      ['allow', 'socio.example.org', 'mail.error.spam_sender_taken'],
      ['block', 'socio.example.org', 'mail.error.spam_sender_on_allow'],
      ['allow', 'pesado@example.net', 'mail.error.spam_sender_on_block'],
    ];
    for (const [list, sender, messageKey] of cases) {
      const refused = await addSender(list, sender);
      expect(refused.response.statusCode, sender).toBe(400);
      expect(refused.body.system.inputs, sender).toEqual(['sender']);
      expect(refused.body.system.errors, sender).toEqual([translate('es', messageKey)]);
    }
    expect((await addSender('gray', 'x.example.org')).body.system.inputs).toEqual(['list']);
    const lists = (await overview()).senders.map((sender) => `${sender.list} ${sender.sender}`);
    expect(lists).toEqual(['allow socio.example.org', 'block pesado@example.net']);

    const removed = await call(`mail/spam/senders/${blocked.body.data.sender.id}/delete/`);
    expect(removed.body.system.errors).toEqual([]);
    expect(filterText()).not.toContain('pesado@example.net');
    const again = await call(`mail/spam/senders/${blocked.body.data.sender.id}/delete/`);
    expect(again.response.statusCode).toBe(404);
  });

  it('`mail sync` writes back a spam filter lost or edited by hand, with the lists, and removes a leftover one', async () => {
    const sync = (dryRun: boolean) =>
      syncMail(t.database.db, createMailDriver(t.config), { dryRun, now: 1_800_000_000 }, '');
    const folder = `${domain}/info`;
    const written = filterText();
    expect((await sync(true)).filters).toEqual([]);
    rmSync(filterFile());
    expect((await sync(true)).filters).toEqual([{ folder, problem: 'missing', repaired: false }]);
    expect((await sync(false)).filters).toEqual([{ folder, problem: 'missing', repaired: true }]);
    expect(filterText()).toBe(written);
    writeFileSync(filterFile(), 'keep;\n');
    expect((await sync(false)).filters).toEqual([{ folder, problem: 'changed', repaired: true }]);
    expect(filterText()).toBe(written);
    // filtering gone behind the panel's back (a database restored from before it)
    const row = await t.database.db.selectFrom('mailbox_spam').selectAll().where('mailbox_id', '=', box.id).execute();
    await t.database.db.deleteFrom('mailbox_spam').where('mailbox_id', '=', box.id).execute();
    expect((await sync(false)).filters).toEqual([{ folder, problem: 'extra', repaired: true }]);
    expect(existsSync(filterFile())).toBe(false);
    await t.database.db.insertInto('mailbox_spam').values(row).execute();
    expect((await sync(false)).filters).toEqual([{ folder, problem: 'missing', repaired: true }]);
  });

  it('lets those who see the spam filter read it, and only those who may change it change it', async () => {
    expect((await overview(readerCookie)).senders).toHaveLength(1);
    expect((await addSender('block', 'otro@example.net', readerCookie)).response.statusCode).toBe(403);
    const reader = await call(`correo/${box.id}/spam/save/`, { mode: 'off', threshold: '6' }, readerCookie);
    expect(reader.response.statusCode).toBe(403);
    // without the key, or on another account's service, there is nothing to see (404, as for any item)
    expect((await call('mail/spam/', {}, noneCookie)).response.statusCode).toBe(404);
    const someoneElse = await t.call('POST', `service/${otherId}/mail/spam/`, {}, { cookie: readerCookie });
    expect(someoneElse.response.statusCode).toBe(404);
    // a mailbox of another service is not this service's
    const foreign = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${otherId}/correo/create/`,
      { name: 'ajeno', password: 'a mailbox password' },
      { cookie },
    );
    const across = await call(`correo/${foreign.body.data.correo.id}/spam/save/`, { mode: 'junk', threshold: '6' });
    expect(across.response.statusCode).toBe(404);
  });

  it('holds a service to its plan’s number of list entries', async () => {
    const plans = createPlansService(
      t.database.db,
      t.config,
      () => Math.floor(t.clock.now() / 1000),
      t.services.hosting,
    );
    const count = (await overview()).senders.length;
    await plans.update('default', { spamSenders: count });
    try {
      const over = await addSender('block', 'uno.mas.example.net');
      expect(over.response.statusCode).toBe(409);
      expect(over.body.system.errors).toEqual([translate('es', 'plan.error.spamSenders', { limit: count })]);
      expect((await overview()).maxSenders).toBe(count);
    } finally {
      await plans.update('default', { spamSenders: 200 });
    }
  });

  it('leaves a script its owner activated elsewhere active, and removes the filter when switched off', async () => {
    // what a mail client's filters do over ManageSieve: a script of its own, made active
    const home = path.join(t.config.mail.root as string, domain, 'info');
    mkdirSync(path.join(home, 'sieve'), { recursive: true });
    writeFileSync(path.join(home, 'sieve', 'propio.sieve'), 'keep;\n');
    symlinkSync('sieve/propio.sieve', path.join(home, '.dovecot.sieve'));
    const junk = await save({ mode: 'junk', threshold: '6' });
    expect(junk.body.system.errors).toEqual([]);
    expect(readFileSync(path.join(home, '.dovecot.sieve'), 'utf8')).toBe('keep;\n');
    expect(filterText()).toContain('fileinto');

    const off = await save({ mode: 'off', threshold: '6' });
    expect(off.body.system.errors).toEqual([]);
    expect(() => readFileSync(filterFile())).toThrow();
    expect((await overview()).mailboxes[0]).toMatchObject({ mode: 'off', threshold: 6 });
    expect(readFileSync(path.join(home, '.dovecot.sieve'), 'utf8')).toBe('keep;\n');
  });
});

describe('spam filtering when Dovecot does not answer', () => {
  let t: TestApp;

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-spam-down-'));
    // doveadm with a config that is not there fails at once, as with Dovecot stopped
    t = await buildTestApp('sqlite', {
      config: { 'mail.root': root, 'mail.driver': 'dovecot', 'mail.doveadmConfig': path.join(root, 'none.conf') },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('still shows the settings, and says the mail server did not tell what was filtered', async () => {
    const domain = 'caido.test';
    const account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasMail: true } },
    });
    const id = account.resources[domain] as number;
    const cookie = await t.login(account.domainName, account.username, account.password);
    const made = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'info', password: 'a mailbox password' },
      { cookie },
    );
    const box = made.body.data.correo;
    const saved = await t.call('POST', `service/${id}/correo/${box.id}/spam/save/`, { mode: 'junk' }, { cookie });
    expect(saved.body.system.errors).toEqual([]);
    const { body } = await t.call<SpamData>('GET', `service/${id}/mail/spam/`, {}, { cookie });
    expect(body.system.errors).toEqual([]);
    expect(body.data.mailboxes).toEqual([{ id: box.id, user: 'info', mode: 'junk', threshold: 6 }]);
    expect(body.data.filtered).toBeNull();
  });
});
