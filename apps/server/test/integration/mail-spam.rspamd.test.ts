import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailbox } from '@panel247/contract/mail';
import type { SpamData } from '@panel247/contract/mail-spam';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailDaemons, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { type Rspamd, startRspamd } from '../../../../scripts/daemons/rspamd.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { type ReceivedMail, startSmtpSink } from '../support/smtp-sink.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** SpamAssassin's and rspamd's test string: any filter scores a message holding it as spam. */
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

/**
 * Spam filtering through the real mail path: Postfix takes the message on its port 25 role,
 * Dovecot's LMTP runs the mailbox's spam filter (Sieve), which asks Debian's rspamd for the score
 * through the panel's program; the result is read back over IMAP as the mailbox's owner would.
 */
describe('spam filtering with real Postfix, Dovecot, Sieve and rspamd', () => {
  let database: TestDatabase;
  let rspamd: Rspamd;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let mail: MailDaemons;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const domain = 'filtro-spam.test';
  const password = 'a mailbox password';
  const boxes: Record<string, Mailbox> = {};

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-spamdb-'));
    chmodSync(folder, 0o777);
    database = await createTestDatabase('sqlite', { sqliteFile: path.join(folder, 'panel.sqlite') });
    account = await buildAccount(database.db, { domainName: domain, resources: { [domain]: { hasMail: true } } });
    id = account.resources[domain] as number;
    for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    rspamd = await startRspamd();
    // the senders' world (example.org), where the autoresponder's replies go
    sink = await startSmtpSink();
    mail = await startMailDaemons({ kind: 'sqlite', file: database.url as string }, undefined, {
      spamScanner: rspamd.address,
      postfixMainCf: `transport_maps = inline:{ example.org=smtp:[127.0.0.1]:${sink.port} }\n`,
    });
    t = await buildTestApp('sqlite', {
      database,
      config: { 'mail.root': mail.mailRoot, 'mail.doveadmConfig': mail.doveadmConfig },
    });
    cookie = await t.login(account.domainName, account.username, account.password);
    for (const name of ['papelera', 'etiqueta', 'sinfiltro']) {
      const { body } = await t.call<{ correo: Mailbox }>(
        'POST',
        `service/${id}/correo/create/`,
        { name, password },
        { cookie },
      );
      expect(body.system.errors).toEqual([]);
      boxes[name] = body.data.correo;
    }
    const setSpam = async (name: string, mode: string) => {
      const box = boxes[name] as Mailbox;
      const saved = await t.call(
        'POST',
        `service/${id}/correo/${box.id}/spam/save/`,
        { mode, threshold: '6' },
        { cookie },
      );
      expect(saved.body.system.errors).toEqual([]);
    };
    await setSpam('papelera', 'junk');
    await setSpam('etiqueta', 'tag');
    // its own script too: the spam filter runs before it, and spam moved to Junk never reaches it
    const autoreply = { autoreply: 'true', subject: 'Fuera de la oficina', body: 'Vuelvo el lunes.', days: '1' };
    const rules = await t.call('POST', `service/${id}/correo/${boxes.papelera?.id}/rules/save/`, autoreply, { cookie });
    expect(rules.body.system.errors).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await rspamd?.stop();
    await sink?.close();
    await database?.destroy();
  });

  const send = (from: string, to: string, subject: string, text: string) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port: mail.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ from, to: `${to}@${domain}`, subject, text });
  /** The UIDs of the folder's messages with the subject, over IMAP. */
  const uids = async (user: string, folder: string, subject: string) => {
    const search = await mail.imap(`${user}@${domain}`, password, `/${folder}`, [
      '-X',
      `UID SEARCH SUBJECT "${subject}"`,
    ]);
    return (/\* SEARCH([\d ]*)/.exec(search.stdout)?.[1] ?? '').trim().split(' ').filter(Boolean);
  };
  /** The whole message, as the mailbox's owner downloads it over IMAP. */
  const fetch = async (user: string, folder: string, uid: string) =>
    (await mail.imap(`${user}@${domain}`, password, `/${folder}/;UID=${uid}`)).stdout;
  const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const found = await probe();
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** The message once delivered: its folder (of those given) and its text. */
  const deliveredTo = (user: string, subject: string, folders = ['INBOX', 'Junk']) =>
    until(`"${subject}" for ${user}`, async () => {
      for (const folder of folders) {
        const [uid] = await uids(user, folder, subject);
        if (uid) return { folder, raw: await fetch(user, folder, uid) };
      }
      return undefined;
    });

  it('moves GTUBE to Junk for a filtering mailbox, with its score', async () => {
    await send('spammer@example.org', 'papelera', 'Oferta GTUBE', `Compre ya.\r\n${GTUBE}\r\n`);
    const message = await deliveredTo('papelera', 'Oferta GTUBE');
    expect(message.folder).toBe('Junk');
    expect(message.raw).toMatch(/^X-Spam: Yes\r?$/m);
    const score = Number(/^X-Spam-Score: ([0-9.]+)\r?$/m.exec(message.raw)?.[1]);
    expect(score).toBeGreaterThanOrEqual(6);
    expect(await uids('papelera', 'INBOX', 'Oferta GTUBE')).toEqual([]);
  });

  it('leaves GTUBE in the inbox, tagged, for a tag-only mailbox', async () => {
    await send('spammer@example.org', 'etiqueta', 'Etiqueta GTUBE', `Compre ya.\r\n${GTUBE}\r\n`);
    const message = await deliveredTo('etiqueta', 'Etiqueta GTUBE');
    expect(message.folder).toBe('INBOX');
    expect(message.raw).toMatch(/^X-Spam: Yes\r?$/m);
    expect(message.raw).toMatch(/^X-Spam-Score: [0-9.]+\r?$/m);
    expect(existsSync(path.join(mail.mailRoot, domain, 'etiqueta', 'Maildir', '.Junk'))).toBe(false);
  });

  it('delivers a clean message untouched, and drops a sender’s own X-Spam verdict', async () => {
    const text = 'Hola,\r\nnos vemos el martes a las diez.\r\nUn saludo\r\n';
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: mail.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({ from: 'ana@example.org', to: `papelera@${domain}`, subject: 'Reunion', text });
    const clean = await deliveredTo('papelera', 'Reunion');
    expect(clean.folder).toBe('INBOX');
    expect(clean.raw).not.toMatch(/^X-Spam/im);
    expect(clean.raw).toContain('nos vemos el martes a las diez.');
    // the mailbox's autoresponder answered the clean message; the spam before it got no answer
    await until('the autoreply to ana', async () =>
      sink.received.find(
        (m: ReceivedMail) => m.to.includes('ana@example.org') && m.raw.includes('Fuera de la oficina'),
      ),
    );
    expect(sink.received.filter((m: ReceivedMail) => m.to.includes('spammer@example.org'))).toEqual([]);
    // a spammer's own "not spam" headers do not pass: the filter's verdict replaces them
    await transport.sendMail({
      from: 'spammer@example.org',
      to: `papelera@${domain}`,
      subject: 'Falso limpio',
      text: `${GTUBE}\r\n`,
      headers: { 'X-Spam': 'No', 'X-Spam-Score': '0.00' },
    });
    const forged = await deliveredTo('papelera', 'Falso limpio');
    expect(forged.folder).toBe('Junk');
    expect(forged.raw).not.toMatch(/^X-Spam: No/m);
    expect(forged.raw).not.toMatch(/^X-Spam-Score: 0\.00/m);
  });

  it('never filters a mailbox with filtering off', async () => {
    await send('spammer@example.org', 'sinfiltro', 'Sin filtro GTUBE', `${GTUBE}\r\n`);
    const message = await deliveredTo('sinfiltro', 'Sin filtro GTUBE');
    expect(message.folder).toBe('INBOX');
    expect(message.raw).not.toMatch(/^X-Spam/im);
  });

  it('follows the domain’s allow and block lists, and shows what was filtered', async () => {
    const add = async (list: string, sender: string) => {
      const added = await t.call('POST', `service/${id}/mail/spam/senders/add/`, { list, sender }, { cookie });
      expect(added.body.system.errors).toEqual([]);
    };
    await add('allow', 'socio.example.org');
    await add('block', 'pesado@example.net');
    await send('boletin@news.socio.example.org', 'papelera', 'Socio GTUBE', `${GTUBE}\r\n`);
    const allowed = await deliveredTo('papelera', 'Socio GTUBE');
    expect(allowed.folder).toBe('INBOX');
    expect(allowed.raw).not.toMatch(/^X-Spam/im);
    await send('pesado@example.net', 'papelera', 'Pesado otra vez', 'Un mensaje normal.\r\n');
    const blocked = await deliveredTo('papelera', 'Pesado otra vez');
    expect(blocked.folder).toBe('Junk');
    expect(blocked.raw).toMatch(/^X-Spam: Yes\r?$/m);
    expect(blocked.raw).not.toMatch(/^X-Spam-Score/m);

    const { body } = await t.call<SpamData>('GET', `service/${id}/mail/spam/`, {}, { cookie });
    expect(body.system.errors).toEqual([]);
    const filtered = body.data.filtered ?? [];
    const subjects = filtered.map((message) => `${message.user} ${message.folder} ${message.subject}`);
    expect(subjects).toEqual(
      expect.arrayContaining([
        'papelera Junk Oferta GTUBE',
        'papelera Junk Falso limpio',
        'papelera Junk Pesado otra vez',
        'etiqueta INBOX Etiqueta GTUBE',
      ]),
    );
    expect(subjects.some((subject) => subject.includes('Reunion') || subject.includes('Socio'))).toBe(false);
    const pesado = filtered.find((message) => message.subject === 'Pesado otra vez');
    expect(pesado).toMatchObject({ score: '', from: 'pesado@example.net' });
    // newest first
    const times = filtered.map((message) => message.received);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('stops filtering once switched off: the mailbox’s filter is gone', async () => {
    const box = boxes.papelera as Mailbox;
    const off = await t.call('POST', `service/${id}/correo/${box.id}/spam/save/`, { mode: 'off' }, { cookie });
    expect(off.body.system.errors).toEqual([]);
    expect(existsSync(path.join(mail.mailRoot, domain, 'papelera', 'panel247-spam.sieve'))).toBe(false);
    await send('spammer@example.org', 'papelera', 'Ya sin filtro GTUBE', `${GTUBE}\r\n`);
    const message = await deliveredTo('papelera', 'Ya sin filtro GTUBE');
    expect(message.folder).toBe('INBOX');
  });
});
