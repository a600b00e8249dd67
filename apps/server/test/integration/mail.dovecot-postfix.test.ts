import { chmodSync, existsSync, mkdtempSync, readdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Alias, Mailbox, WebmailLoginData } from '@panel247/contract/mail';
import SQLite from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileAsync, requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { type MailDaemons, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { startRoundcube } from '../../../../scripts/daemons/roundcube.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { setSuspended } from '../support/suspension.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

const WEBMAIL_KEY = 'w'.repeat(40);
const REPO = path.resolve(import.meta.dirname, '../../../..');
const REDEEM_PHP = path.join(REPO, 'deploy/webmail/panel247_signon/redeem.php');
const ROUNDCUBE_HARNESS = path.join(REPO, 'apps/server/test/support/roundcube-harness.php');

interface PluginRun {
  startup: { task: string; action: string };
  auth: { user: string; pass: string; valid: boolean; cookiecheck: boolean; abort: boolean; error: string | null };
  session: Record<string, unknown>;
  storage: { user: string };
  smtp: { smtp_user: string; smtp_pass: string };
  relay: { smtp_user: string };
  log: string[];
}

describe.each(DATABASE_KINDS)('mail delivered by real Postfix and Dovecot (panel on %s)', (kind) => {
  let database: TestDatabase;
  let mail: MailDaemons;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const domain = `correo-${kind}.test`;
  // A second domain with a catch-all alias: it must not take the mail of the domain's mailboxes.
  const wild = `comodin-${kind}.test`;
  let wildId: number;
  /** Where the SQLite database is (panel.sqlite), so the CLI opens the same one. */
  let dataDir: string;

  beforeAll(async () => {
    // The daemons read the panel's database directly: SQLite must be a file they can open
    // (WAL needs write access to the folder for its shared-memory file).
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-maildb-'));
    dataDir = folder;
    chmodSync(folder, 0o777);
    database = await createTestDatabase(kind, { sqliteFile: path.join(folder, 'panel.sqlite') });
    account = await buildAccount(database.db, {
      domainName: domain,
      resources: { [domain]: { hasMail: true }, [wild]: { hasMail: true } },
    });
    id = account.resources[domain] as number;
    wildId = account.resources[wild] as number;
    if (kind === 'sqlite') for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    mail = await startMailDaemons(
      kind === 'sqlite' ? { kind, file: database.url as string } : { kind, url: database.url as string },
    );
    t = await buildTestApp(kind, {
      database,
      config: {
        'mail.root': mail.mailRoot,
        'mail.doveadmConfig': mail.doveadmConfig,
        'mail.deleteMode': 'keep',
        'mail.webmailKey': WEBMAIL_KEY,
      },
    });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await database?.destroy();
  });

  const createMailbox = async (name: string, password: string, serviceId = id) => {
    const { body } = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${serviceId}/correo/create/`,
      { name, password },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    return body.data.correo;
  };
  const mailboxes = async (serviceId = id) =>
    (await t.call<{ correo: Mailbox[] }>('GET', `service/${serviceId}/correo/list/`, {}, { cookie })).body.data.correo;
  const usageOf = async (user: string) => (await mailboxes()).find((m) => m.user === user)?.usage ?? -1;
  const send = (to: string, subject: string, text = `${subject} body`) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port: mail.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ from: 'sender@example.org', to, subject, text });
  const hasMessage = async (user: string, password: string, subject: string) => {
    const search = await mail.imap(user, password, '/INBOX', ['-X', `SEARCH SUBJECT "${subject}"`]);
    return /\* SEARCH \d+/.test(search.stdout);
  };
  /** The panel on a real port, for the WebMail's server-to-server redeem. */
  let listening: Promise<string> | undefined;
  const panelUrl = () => {
    listening ??= t.app.listen({ port: 0, host: '127.0.0.1' });
    return listening;
  };
  const waitForMessage = async (user: string, password: string, subject: string) => {
    for (let i = 0; i < 100; i++) {
      if (await hasMessage(user, password, subject)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  it('lets a new mailbox log in over IMAP at once, and refuses a wrong password', async () => {
    await createMailbox('info', 'first password 1');
    expect((await mail.imap(`info@${domain}`, 'first password 1')).code).toBe(0);
    expect((await mail.imap(`info@${domain}`, 'wrong password')).code).toBe(67);
  });

  it('delivers a message sent to an alias with two targets into both mailboxes, and usage grows by its size', async () => {
    await createMailbox('ventas', 'second password 2');
    const alias = await t.call(
      'POST',
      `service/${id}/alias/create/`,
      { name: 'contacto', target: [`info@${domain}`, `ventas@${domain}`, ''] },
      { cookie },
    );
    expect(alias.body.system.errors).toEqual([]);
    const before = { info: await usageOf('info'), ventas: await usageOf('ventas') };
    expect(before.info).toBeGreaterThanOrEqual(0);
    const sent = await send(`contacto@${domain}`, 'Hola equipo', `${'Una línea de texto del mensaje.\n'.repeat(800)}`);
    const size = (sent as { messageSize?: number }).messageSize ?? 0;
    expect(size).toBeGreaterThan(20_000);
    expect(await waitForMessage(`info@${domain}`, 'first password 1', 'Hola equipo')).toBe(true);
    expect(await waitForMessage(`ventas@${domain}`, 'second password 2', 'Hola equipo')).toBe(true);
    expect((await usageOf('info')) - before.info).toBeGreaterThanOrEqual(size);
    expect((await usageOf('ventas')) - before.ventas).toBeGreaterThanOrEqual(size);
  });

  it('delivers where an alias points after its targets are edited', async () => {
    const contacto = (
      await t.call<{ alias: Alias[] }>('GET', `service/${id}/alias/list/`, {}, { cookie })
    ).body.data.alias.find((a) => a.alias === 'contacto') as Alias;
    const saved = await t.call(
      'POST',
      `service/${id}/alias/${contacto.id}/save/`,
      { target: [`ventas@${domain}`] },
      { cookie },
    );
    expect(saved.body.system.errors).toEqual([]);
    await send(`contacto@${domain}`, 'Solo ventas');
    expect(await waitForMessage(`ventas@${domain}`, 'second password 2', 'Solo ventas')).toBe(true);
    // both targets were delivered in one go before: once ventas has it, info never will
    expect(await hasMessage(`info@${domain}`, 'first password 1', 'Solo ventas')).toBe(false);
    await t.call('POST', `service/${id}/alias/${contacto.id}/save/`, { target: [`info@${domain}`] }, { cookie });
    await send(`contacto@${domain}`, 'Solo info');
    expect(await waitForMessage(`info@${domain}`, 'first password 1', 'Solo info')).toBe(true);
    expect(await hasMessage(`ventas@${domain}`, 'second password 2', 'Solo info')).toBe(false);
  });

  it('keeps a mailbox’s mail in the mailbox when its domain has a catch-all alias', async () => {
    await createMailbox('buzon', 'wild password 1', wildId);
    await createMailbox('resto', 'wild password 2', wildId);
    const catchAll = await t.call(
      'POST',
      `service/${wildId}/alias/create/`,
      { name: '', target: [`resto@${wild}`] },
      { cookie },
    );
    expect(catchAll.body.system.errors).toEqual([]);
    await send(`buzon@${wild}`, 'Para el buzon');
    await send(`nadie@${wild}`, 'Para nadie');
    expect(await waitForMessage(`buzon@${wild}`, 'wild password 1', 'Para el buzon')).toBe(true);
    expect(await waitForMessage(`resto@${wild}`, 'wild password 2', 'Para nadie')).toBe(true);
    expect(await hasMessage(`resto@${wild}`, 'wild password 2', 'Para el buzon')).toBe(false);
    expect(await hasMessage(`buzon@${wild}`, 'wild password 1', 'Para nadie')).toBe(false);
    // without the catch-all an unknown address is refused again
    const alias = (await t.call<{ alias: Alias[] }>('GET', `service/${wildId}/alias/list/`, {}, { cookie })).body.data
      .alias[0] as Alias;
    await t.call('POST', `service/${wildId}/alias/${alias.id}/delete/`, {}, { cookie });
    await expect(send(`nadie@${wild}`, 'Ya no')).rejects.toThrow(/550/);
  });

  it('refuses the old password at once after a change, even with Dovecot’s auth cache on', async () => {
    const box = (
      await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie })
    ).body.data.correo.find((m) => m.user === 'info') as Mailbox;
    expect((await mail.imap(`info@${domain}`, 'first password 1')).code).toBe(0);
    const changed = await t.call(
      'POST',
      `service/${id}/correo/${box.id}/changepassword/`,
      { password: 'third password 3' },
      { cookie },
    );
    expect(changed.body.system.valid).toBe(true);
    expect((await mail.imap(`info@${domain}`, 'first password 1')).code).toBe(67);
    expect((await mail.imap(`info@${domain}`, 'third password 3')).code).toBe(0);
  });

  it('refuses a suspended service’s IMAP logins while its mail keeps arriving, and lets them in once lifted', async () => {
    const suspend = async (on: boolean) => {
      await setSuspended(database.db, id, on);
      await t.services.mail.loginsChanged({ id, domain });
    };
    // Dovecot's auth cache holds the login: the change must make it ask again
    expect((await mail.imap(`info@${domain}`, 'third password 3')).code).toBe(0);
    await suspend(true);
    expect((await mail.imap(`info@${domain}`, 'third password 3')).code).toBe(67);
    await send(`info@${domain}`, 'while suspended');
    await suspend(false);
    expect(await waitForMessage(`info@${domain}`, 'third password 3', 'while suspended')).toBe(true);
  });

  it('opens WebMail with a one-time token: redeemed once, then the master user opens the mailbox', async () => {
    const box = (
      await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie })
    ).body.data.correo.find((m) => m.user === 'ventas') as Mailbox;
    const login = await t.call<WebmailLoginData>('GET', `service/${id}/correo/${box.id}/login/`, {}, { cookie });
    expect(JSON.stringify(login.body.data)).not.toContain('second password 2');
    const token = login.body.data.fields._p247_token as string;
    const redeem = () => t.call<{ user: string }>('POST', 'webmail/redeem/', { token, key: WEBMAIL_KEY });
    expect((await redeem()).body.data).toEqual({ user: `ventas@${domain}` });
    expect((await redeem()).response.statusCode).toBe(404);
    const wrongKey = await t.call('POST', 'webmail/redeem/', { token, key: 'x'.repeat(40) });
    expect(wrongKey.response.statusCode).toBe(403);
    expect((await mail.imap(`ventas@${domain}*${mail.masterUser}`, mail.masterPassword)).code).toBe(0);
    expect((await mail.imap(`ventas@${domain}*${mail.masterUser}`, 'not the master password')).code).toBe(67);
  });

  it('signs on through deploy/webmail’s Roundcube plugin: PHP redeems the token once, Dovecot’s master user opens the mailbox', async () => {
    const php = requireBinary('php', 'php8.2-cli');
    const base = await panelUrl();
    const env = {
      ...process.env,
      PANEL247_REDEEM_URL: `${base}/p247/webmail/redeem/`,
      PANEL247_WEBMAIL_KEY: WEBMAIL_KEY,
      PANEL247_MASTER_USER: mail.masterUser,
      PANEL247_MASTER_PASSWORD: mail.masterPassword,
    };
    const box = (await mailboxes()).find((m) => m.user === 'ventas') as Mailbox;
    const form = async () =>
      (await t.call<WebmailLoginData>('GET', `service/${id}/correo/${box.id}/login/`, {}, { cookie })).body.data.fields;
    const redeemCli = (token: string) =>
      execFileAsync(php, [REDEEM_PHP, token], { env }).then(
        ({ stdout }) => ({ code: 0, out: stdout.trim() }),
        (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, out: (error.stderr ?? '').trim() }),
      );

    // redeem.php from the command line: once, then refused
    const first = await form();
    expect(await redeemCli(first._p247_token)).toEqual({ code: 0, out: `ventas@${domain}` });
    expect(await redeemCli(first._p247_token)).toEqual({ code: 1, out: 'refused' });
    expect(await redeemCli('not a token')).toEqual({ code: 1, out: 'malformed token' });
    const wrongKey = await execFileAsync(php, [REDEEM_PHP, (await form())._p247_token], {
      env: { ...env, PANEL247_WEBMAIL_KEY: 'x'.repeat(40) },
    }).catch((error: { code?: number; stderr?: string }) => error);
    expect(wrongKey).toMatchObject({ code: 1, stderr: 'refused\n' });

    // the plugin's hooks, in the order Roundcube's login runs them, with the form the panel gives
    const plugin = async (fields: Record<string, string>, loggedIn?: string) =>
      JSON.parse(
        (
          await execFileAsync(
            php,
            [ROUNDCUBE_HARNESS, new URLSearchParams(fields).toString(), ...(loggedIn ? [loggedIn] : [])],
            { env },
          )
        ).stdout,
      ) as PluginRun;
    const fields = await form();
    const run = await plugin(fields);
    expect(run.startup).toEqual({ task: 'login', action: 'login' });
    expect(run.auth).toMatchObject({ user: `ventas@${domain}`, valid: true, cookiecheck: false, abort: false });
    expect(run.session).toMatchObject({ panel247_signon: true });
    expect(run.storage.user).toBe(`ventas@${domain}*${mail.masterUser}`);
    // "%u" is replaced by the address after the hook; a fixed relay login is left alone
    expect(run.smtp.smtp_user).toBe(`%u*${mail.masterUser}`);
    expect(run.relay.smtp_user).toBe('relay@provider.example');
    // what the plugin hands to IMAP is what Dovecot lets in, as the mailbox itself
    const imap = await mail.imap(run.storage.user, run.auth.pass, '/INBOX', ['-X', 'SEARCH SUBJECT "Hola equipo"']);
    expect(imap.code).toBe(0);
    expect(imap.stdout).toMatch(/\* SEARCH \d+/);

    // the same form again: the token is spent, Roundcube shows an error and logs nobody in
    const reused = await plugin(fields);
    expect(reused.auth).toMatchObject({ abort: true, valid: false });
    expect(reused.auth.pass).toBe('');
    expect(reused.session).not.toHaveProperty('panel247_signon');
    expect(reused.storage.user).toBe(`ventas@${domain}`);
    expect(reused.log.join('\n')).toContain('refused');

    // another mailbox open in the same browser is logged out first
    const switched = await plugin(await form(), `info@${domain}`);
    expect(switched.auth).toMatchObject({ user: `ventas@${domain}`, valid: true });
    expect(switched.session).toMatchObject({ temp: true, username: `ventas@${domain}`, panel247_signon: true });

    // an ordinary Roundcube login form is left alone
    const ordinary = await plugin({ _user: `ventas@${domain}`, _pass: 'second password 2', _action: 'login' });
    expect(ordinary.startup).toEqual({ task: 'mail', action: '' });
    expect(ordinary.auth).toMatchObject({ user: `ventas@${domain}`, pass: 'second password 2', valid: false });
    expect(ordinary.storage.user).toBe(`ventas@${domain}`);
  });

  it('opens a real Roundcube with the panel’s form: the plugin redeems once, the master user opens the mailbox', async () => {
    const roundcube = await startRoundcube({
      imapPort: mail.imapPort,
      redeemUrl: `${await panelUrl()}/p247/webmail/redeem/`,
      webmailKey: WEBMAIL_KEY,
      masterUser: mail.masterUser,
      masterPassword: mail.masterPassword,
    });
    try {
      const box = (await mailboxes()).find((m) => m.user === 'ventas') as Mailbox;
      const login = await t.call<WebmailLoginData>('GET', `service/${id}/correo/${box.id}/login/`, {}, { cookie });
      // what the browser does with the form: post it to the WebMail
      const post = () =>
        fetch(`${roundcube.url}/`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(login.body.data.fields).toString(),
        });
      const signedOn = await post();
      expect(signedOn.status).toBe(302);
      expect(signedOn.headers.get('location')).toContain('_task=mail');
      const jar = new Map<string, string>();
      for (const line of signedOn.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const [name = '', value = ''] = pair.split('=');
        if (value && value !== 'deleted') jar.set(name, value);
      }
      const cookies = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const page = await fetch(`${roundcube.url}/?_task=mail&_mbox=INBOX`, { headers: { cookie: cookies } });
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).not.toContain('rcmloginuser');
      expect(html).toContain(`ventas@${domain}`);
      // a later request connects to IMAP again (the master login kept in the session)
      const requestToken = /"request_token":"([^"]+)"/.exec(html)?.[1] ?? '';
      const list = await fetch(`${roundcube.url}/?_task=mail&_action=list&_mbox=INBOX&_remote=1`, {
        headers: { cookie: cookies, 'x-roundcube-request': requestToken },
      });
      expect(list.status).toBe(200);
      expect(await list.text()).toContain('Hola equipo');
      // Roundcube knows the user by the address, not by the master login
      const users = new SQLite(roundcube.database, { readonly: true });
      expect(users.prepare('SELECT username FROM users').all()).toEqual([{ username: `ventas@${domain}` }]);
      users.close();

      // deploy/webmail's nginx site serves the skins' files and runs no PHP but the entry point
      expect((await fetch(`${roundcube.url}/skins/elastic/images/favicon.ico`)).status).toBe(200);
      expect((await fetch(`${roundcube.url}/plugins/panel247_signon/redeem.php`)).status).toBe(404);
      expect((await fetch(`${roundcube.url}/plugins/panel247_signon/panel247_signon.php`)).status).toBe(404);

      // the same form again: the token is spent, Roundcube shows its login page with the error
      const reused = await post();
      const reusedHtml = await reused.text();
      expect(reused.status).toBe(401);
      expect(reusedHtml).toContain('rcmloginuser');
      expect(reusedHtml).toContain('This sign-on has expired or was already used');
    } finally {
      await roundcube.stop();
    }
  });

  it('refuses login and delivery once a mailbox is deleted, keeping its mail aside', async () => {
    const box = (
      await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie })
    ).body.data.correo.find((m) => m.user === 'ventas') as Mailbox;
    const removed = await t.call('POST', `service/${id}/correo/${box.id}/delete/`, {}, { cookie });
    expect(removed.body.system.info).toEqual(['Cuenta de correo eliminada']);
    expect((await mail.imap(`ventas@${domain}`, 'second password 2')).code).toBe(67);
    await expect(send(`ventas@${domain}`, 'Too late')).rejects.toThrow(/550/);
    expect(existsSync(path.join(mail.mailRoot, domain, 'ventas'))).toBe(false);
    expect(readdirSync(path.join(mail.mailRoot, '.deleted', domain)).some((entry) => entry.startsWith('ventas.'))).toBe(
      true,
    );
  });

  it('`mail purge` removes kept mail only once it is older than PANEL_MAIL_KEEP_DAYS', async () => {
    const kept = path.join(mail.mailRoot, '.deleted', domain);
    const purge = async () => {
      let stdout = '';
      let stderr = '';
      const code = await runCli(['mail', 'purge', '--json'], {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        readStdin: async () => '',
        env: {
          PANEL_DATA_DIR: dataDir,
          PANEL_MAIL_ROOT: mail.mailRoot,
          PANEL_MAIL_KEEP_DAYS: '2',
          PANEL_LOG_LEVEL: 'silent',
          ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
        },
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      return JSON.parse(stdout) as { removed: number; keepDays: number };
    };
    expect(await purge()).toEqual({ removed: 0, keepDays: 2 });
    const entry = readdirSync(kept).find((name) => name.startsWith('ventas.')) as string;
    // the kept mail is the real maildir, messages and all
    const messages = ['new', 'cur'].flatMap((sub) => readdirSync(path.join(kept, entry, 'Maildir', sub)));
    expect(messages.length).toBeGreaterThan(0);
    // as if it had been deleted three days ago
    const stamp = Math.floor(Date.now() / 1000) - 3 * 86_400;
    renameSync(path.join(kept, entry), path.join(kept, `ventas.${stamp}`));
    expect(await purge()).toEqual({ removed: 1, keepDays: 2 });
    expect(readdirSync(kept).some((name) => name.startsWith('ventas.'))).toBe(false);
  });

  it('removes a deleted mailbox’s mail at once in "remove" mode', async () => {
    // One mail node: the mailbox's deletion is applied by whichever process takes its job from the
    // work log, and the first app's workers would keep the mail aside ("keep" mode). From here on
    // only this app, the node configured to remove, works (the file's last test).
    await t.services.jobs.stop();
    const removing = await buildTestApp(kind, {
      database,
      config: { 'mail.root': mail.mailRoot, 'mail.doveadmConfig': mail.doveadmConfig, 'mail.deleteMode': 'remove' },
    });
    try {
      const c = await removing.login(account.domainName, account.username, account.password);
      const created = await removing.call<{ correo: Mailbox }>(
        'POST',
        `service/${id}/correo/create/`,
        { name: 'efimero', password: 'fleeting password' },
        { cookie: c },
      );
      await send(`efimero@${domain}`, 'Antes de borrar');
      expect(await waitForMessage(`efimero@${domain}`, 'fleeting password', 'Antes de borrar')).toBe(true);
      const folder = path.join(mail.mailRoot, domain, 'efimero');
      expect(existsSync(path.join(folder, 'Maildir'))).toBe(true);
      const removed = await removing.call(
        'POST',
        `service/${id}/correo/${created.body.data.correo.id}/delete/`,
        {},
        { cookie: c },
      );
      expect(removed.body.system.valid).toBe(true);
      expect(existsSync(folder)).toBe(false);
      expect(
        readdirSync(path.join(mail.mailRoot, '.deleted', domain)).some((name) => name.startsWith('efimero.')),
      ).toBe(false);
      expect((await mail.imap(`efimero@${domain}`, 'fleeting password')).code).toBe(67);
      await expect(send(`efimero@${domain}`, 'Too late')).rejects.toThrow(/550/);
    } finally {
      await removing.close();
    }
  });
});
