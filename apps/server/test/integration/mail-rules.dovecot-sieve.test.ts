import { chmodSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailbox, MailboxRules } from '@panel247/contract/mail';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileAsync } from '../../../../scripts/daemons/daemon-harness.ts';
import { type MailDaemons, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { type ReceivedMail, startSmtpSink } from '../support/smtp-sink.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

/** A form's fields as the test client posts them (booleans and numbers as their text). */
function formOf(params: Record<string, unknown>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? value.map(String) : String(value)]),
  );
}

/** A local calendar day `offset` days from today, as Dovecot's `currentdate` sees it. */
function day(offset: number): string {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Autoresponder, forwarding and quota through real Postfix and Dovecot (with Pigeonhole): the
 * panel writes the mailbox's Sieve script, Dovecot's LMTP runs it; the outside world (the
 * senders and the forwarding targets at example.org) is an SMTP sink Postfix relays to.
 */
describe.each(DATABASE_KINDS)('mailbox rules and quota with real Postfix, Dovecot and Sieve (panel on %s)', (kind) => {
  let database: TestDatabase;
  let mail: MailDaemons;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const domain = `reglas-${kind}.test`;
  const password = 'a mailbox password';

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-rulesdb-'));
    chmodSync(folder, 0o777);
    database = await createTestDatabase(kind, { sqliteFile: path.join(folder, 'panel.sqlite') });
    account = await buildAccount(database.db, { domainName: domain, resources: { [domain]: { hasMail: true } } });
    id = account.resources[domain] as number;
    if (kind === 'sqlite') for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    sink = await startSmtpSink();
    mail = await startMailDaemons(
      kind === 'sqlite' ? { kind, file: database.url as string } : { kind, url: database.url as string },
      undefined,
      { postfixMainCf: `transport_maps = inline:{ example.org=smtp:[127.0.0.1]:${sink.port} }\n` },
    );
    t = await buildTestApp(kind, {
      database,
      config: { 'mail.root': mail.mailRoot, 'mail.doveadmConfig': mail.doveadmConfig, 'mail.maxQuotaMb': 2048 },
    });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await sink?.close();
    await database?.destroy();
  });

  const createMailbox = async (name: string, quota?: number) => {
    const { body } = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/create/`,
      { name, password, ...(quota ? { quota: String(quota) } : {}) },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    return body.data.correo;
  };
  const saveRules = async (box: Mailbox, params: Record<string, unknown>) =>
    t.call<{ rules: MailboxRules }>('POST', `service/${id}/correo/${box.id}/rules/save/`, formOf(params), {
      cookie,
    });
  const send = (from: string, to: string, subject: string, text = `${subject} body`) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port: mail.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ from, to, subject, text });
  const hasMessage = async (user: string, subject: string) => {
    const search = await mail.imap(`${user}@${domain}`, password, '/INBOX', ['-X', `SEARCH SUBJECT "${subject}"`]);
    return /\* SEARCH \d+/.test(search.stdout);
  };
  const until = async <T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const found = await probe();
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const delivered = (user: string, subject: string) =>
    until(`"${subject}" in ${user}`, async () => ((await hasMessage(user, subject)) ? true : undefined));
  const receivedBy = (address: string) => sink.received.filter((m: ReceivedMail) => m.to.includes(address));
  const received = (address: string, needle: string) =>
    until(`mail for ${address} with "${needle}"`, () => receivedBy(address).find((m) => m.raw.includes(needle)));

  it('answers two messages of one sender in the period once, with the autoresponder’s subject and body', async () => {
    const box = await createMailbox('vacaciones');
    const saved = await saveRules(box, {
      autoreply: true,
      subject: 'Fuera de la oficina',
      body: 'Vuelvo el lunes.\nUn saludo',
      days: 7,
    });
    expect(saved.body.system.errors).toEqual([]);
    expect(saved.body.data.rules.autoreply).toMatchObject({ enabled: true, subject: 'Fuera de la oficina', days: 7 });
    await send('ana@example.org', `vacaciones@${domain}`, 'Primera pregunta');
    await send('ana@example.org', `vacaciones@${domain}`, 'Segunda pregunta');
    await delivered('vacaciones', 'Primera pregunta');
    await delivered('vacaciones', 'Segunda pregunta');
    // a reply, if any, left during the delivery: the reply to a later sender comes after it
    await send('control@example.org', `vacaciones@${domain}`, 'Control');
    await received('control@example.org', 'Fuera de la oficina');
    const replies = receivedBy('ana@example.org');
    expect(replies).toHaveLength(1);
    const reply = replies[0] as ReceivedMail;
    expect(reply.from).toBe('');
    expect(reply.raw).toMatch(/^Subject: Fuera de la oficina/m);
    expect(reply.raw).toMatch(/^Auto-Submitted: auto-replied/im);
    expect(reply.raw).toContain('Vuelvo el lunes.');
  });

  it('does not answer before its start date nor after its end date', async () => {
    const box = (await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie })).body.data
      .correo[0] as Mailbox;
    const base = { autoreply: true, subject: 'Ausente', body: 'No estoy', days: 1 };
    expect((await saveRules(box, { ...base, start: day(1), end: day(10) })).body.system.errors).toEqual([]);
    await send('luis@example.org', `vacaciones@${domain}`, 'Antes de tiempo');
    await delivered('vacaciones', 'Antes de tiempo');
    expect((await saveRules(box, { ...base, start: day(-5), end: day(-1) })).body.system.errors).toEqual([]);
    await send('marta@example.org', `vacaciones@${domain}`, 'Demasiado tarde');
    await delivered('vacaciones', 'Demasiado tarde');
    // today inside the dates: it answers again
    expect((await saveRules(box, { ...base, start: day(0), end: day(0) })).body.system.errors).toEqual([]);
    await send('control2@example.org', `vacaciones@${domain}`, 'Hoy si');
    await received('control2@example.org', 'Ausente');
    expect(receivedBy('luis@example.org')).toEqual([]);
    expect(receivedBy('marta@example.org')).toEqual([]);
  });

  it('forwards to its targets, keeping a copy or not as set', async () => {
    const box = await createMailbox('reenvio');
    await createMailbox('destino');
    const targets = ['fuera@example.org', `destino@${domain}`];
    const withCopy = await saveRules(box, { forward: targets, keepCopy: true });
    expect(withCopy.body.system.errors).toEqual([]);
    expect(withCopy.body.data.rules.forward).toEqual({ targets, keepCopy: true });
    await send('pepe@example.org', `reenvio@${domain}`, 'Con copia');
    await received('fuera@example.org', 'Con copia');
    await delivered('destino', 'Con copia');
    expect(await hasMessage('reenvio', 'Con copia')).toBe(true);

    expect((await saveRules(box, { forward: targets, keepCopy: false })).body.system.errors).toEqual([]);
    await send('pepe@example.org', `reenvio@${domain}`, 'Sin copia');
    await received('fuera@example.org', 'Sin copia');
    await delivered('destino', 'Sin copia');
    // the forward left once the delivery was over: had a copy been kept, it would be there now
    expect(await hasMessage('reenvio', 'Sin copia')).toBe(false);
    const listed = (await t.call<{ correo: Mailbox }>('GET', `service/${id}/correo/${box.id}/`, {}, { cookie })).body
      .data.correo;
    expect(listed).toMatchObject({ autoreply: false, forward: targets });
  });

  it('does not silently replace a Sieve script activated elsewhere, and keeps it when told to', async () => {
    const box = (
      await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie })
    ).body.data.correo.find((m) => m.user === 'reenvio') as Mailbox;
    // what a mail client's filters do over ManageSieve: a script of its own, made active
    await execFileAsync('sh', [
      '-c',
      'printf "keep;\\n" | doveadm -c "$1" sieve put -a -u "$2" propio',
      'sh',
      mail.doveadmConfig,
      `reenvio@${domain}`,
    ]);
    const rules = await t.call<{ rules: MailboxRules }>('GET', `service/${id}/correo/${box.id}/rules/`, {}, { cookie });
    expect(rules.body.data.rules.foreignScript).toBe('propio');
    const refused = await saveRules(box, { forward: ['fuera@example.org'], keepCopy: false });
    expect(refused.response.statusCode).toBe(409);
    expect(refused.body.system.errors.join(' ')).toContain('propio');
    // the mailbox's own script is the one running: mail stays, nothing is forwarded
    await send('pepe@example.org', `reenvio@${domain}`, 'Filtro propio');
    await delivered('reenvio', 'Filtro propio');

    const replaced = await saveRules(box, { forward: ['fuera@example.org'], keepCopy: false, replaceForeign: true });
    expect(replaced.body.system.errors).toEqual([]);
    expect(replaced.body.data.rules.foreignScript).toBeNull();
    const home = path.join(mail.mailRoot, domain, 'reenvio');
    expect(existsSync(path.join(home, 'sieve', 'propio.sieve'))).toBe(true);
    await send('pepe@example.org', `reenvio@${domain}`, 'Otra vez del panel');
    await received('fuera@example.org', 'Otra vez del panel');
    expect(receivedBy('fuera@example.org').some((m) => m.raw.includes('Filtro propio'))).toBe(false);

    // both off: the panel's script goes, the owner's stays where it was
    expect((await saveRules(box, { forward: [] })).body.system.errors).toEqual([]);
    expect(existsSync(path.join(home, '.dovecot.sieve'))).toBe(false);
    expect(existsSync(path.join(home, 'sieve', 'panel247.sieve'))).toBe(false);
    expect(existsSync(path.join(home, 'sieve', 'propio.sieve'))).toBe(true);
  });

  it('refuses a delivery over the quota with 5.2.2: the sender gets the bounce, the mailbox keeps its mail', async () => {
    const box = await createMailbox('llena', 1);
    const big = `${'Una línea de relleno para ocupar espacio.\n'.repeat(15_000)}`;
    await send('remitente@example.org', `llena@${domain}`, 'Primero cabe', big);
    await delivered('llena', 'Primero cabe');
    await send('remitente@example.org', `llena@${domain}`, 'Ya no cabe', big);
    const bounce = await received('remitente@example.org', 'Ya no cabe');
    expect(bounce.from).toBe('');
    expect(bounce.raw).toContain('5.2.2');
    expect(await hasMessage('llena', 'Primero cabe')).toBe(true);
    expect(await hasMessage('llena', 'Ya no cabe')).toBe(false);

    // the customer raises the quota within the plan: the next delivery fits, IMAP shows the new limit
    const over = await t.call('POST', `service/${id}/correo/${box.id}/quota/`, { quota: '2049' }, { cookie });
    expect(over.response.statusCode).toBe(400);
    const raised = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${id}/correo/${box.id}/quota/`,
      { quota: '5' },
      { cookie },
    );
    expect(raised.body.system.errors).toEqual([]);
    expect(raised.body.data.correo.quota).toBe(5 * 1024 * 1024);
    expect(raised.body.data.correo.usage).toBeGreaterThan(600_000);
    await send('remitente@example.org', `llena@${domain}`, 'Ahora cabe', big);
    await delivered('llena', 'Ahora cabe');
    const quota = await mail.imap(`llena@${domain}`, password, '/', ['-X', 'GETQUOTAROOT INBOX']);
    expect(quota.stdout).toMatch(/STORAGE \d+ 5120\b/);
  });
});
