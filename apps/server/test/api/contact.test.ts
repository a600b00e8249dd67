import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { closedPort, startSmtpSink } from '../support/smtp-sink.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('contact, forgot password and privacy policy on %s', (kind) => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp(kind, {
      config: {
        'smtp.url': `smtp://127.0.0.1:${sink.port}`,
        'smtp.from': 'Panel <panel@test.example>',
        'limits.formsPerIp': 100,
      },
    });
    account = await buildAccount(t.database.db, { domainName: 'contact.test' });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('sends the contact message by SMTP to the brand’s address, replying to the customer', async () => {
    const { body } = await t.call(
      'POST',
      'contactmail/',
      { email: 'ada@example.com', subject: 'Factura de octubre', contents: 'Hola,\nNecesito la factura.' },
      { cookie },
    );
    expect(body.system.valid).toBe(true);
    expect(body.system.info).toEqual(['Mensaje enviado. Te responderemos lo antes posible.']);
    const mail = sink.received.at(-1);
    expect(mail?.to).toEqual(['support@test.example']);
    expect(mail?.from).toBe('panel@test.example');
    expect(mail?.raw).toMatch(/^Reply-To: ada@example\.com/m);
    expect(mail?.raw).toContain('Necesito la factura.');
    expect(mail?.raw).toContain('Account: contact.test');
    const row = await t.database.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'contact', to_address: 'support@test.example', error: null });
    expect(row.sent_at).toBeGreaterThan(0);
  });

  it('sends the forgot-password request without a session', async () => {
    const { body } = await t.call('POST', 'user/forgotpassword/', {
      domain: 'contact.test',
      user: 'admin',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      contents: 'No recuerdo mi contraseña',
      language: 'en',
    });
    expect(body.system.info).toEqual(['Request sent. The support team will contact you.']);
    expect(sink.received.at(-1)?.raw).toContain('Name: Ada Lovelace');
  });

  it('requires a session for the contact form', async () => {
    const { body } = await t.call('POST', 'contactmail/', { email: 'a@example.com', subject: 's', contents: 'c' });
    expect(body.system.statusCode).toBe(101);
  });

  it('keeps the message in the outbox with the error when SMTP is down, and still answers success', async () => {
    const down = await buildTestApp(kind, {
      database: t.database,
      config: { 'smtp.url': `smtp://127.0.0.1:${await closedPort()}`, 'limits.formsPerIp': 100 },
    });
    const downCookie = await down.login(account.domainName, account.username, account.password);
    const { body } = await down.call(
      'POST',
      'contactmail/',
      { email: 'ada@example.com', subject: 'Down', contents: 'Is anyone there?' },
      { cookie: downCookie },
    );
    expect(body.system.valid).toBe(true);
    const row = await t.database.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ subject: '[Test Hosting] Down', sent_at: null });
    expect(row.error).toBeTruthy();
    await down.app.close();
  });

  it('keeps messages in the outbox when no SMTP server is configured', async () => {
    const outboxOnly = await buildTestApp(kind, { database: t.database, config: { 'limits.formsPerIp': 100 } });
    const c = await outboxOnly.login(account.domainName, account.username, account.password);
    await outboxOnly.call(
      'POST',
      'contactmail/',
      { email: 'ada@example.com', subject: 'Queued', contents: 'x' },
      { cookie: c },
    );
    const row = await t.database.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ subject: '[Test Hosting] Queued', sent_at: null, error: null });
    await outboxOnly.app.close();
  });

  it('gives the brand’s privacy policy per language, Catalan falling back to Spanish', async () => {
    const es = await t.call('GET', 'legal/privacypolicy/');
    expect(es.body.data).toMatchObject({ title: 'Política de privacidad', redirecTo: '' });
    expect((es.body.data as { text: string }).text).toContain('Test Hosting');
    const en = await t.call('GET', 'legal/privacypolicy/', { language: 'en' });
    expect(en.body.data).toMatchObject({ title: 'Privacy policy' });

    const brand = await t.database.db
      .selectFrom('brands')
      .select('id')
      .where('slug', '=', 'test-brand')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('legal_texts')
      .values({
        brand_id: brand.id,
        kind: 'privacy',
        language: 'es',
        title: 'Privacidad propia',
        body: 'Texto',
        redirect_to: 'https://test.example/privacidad',
      })
      .execute();
    const ca = await t.call('GET', 'legal/privacypolicy/', { language: 'ca' });
    expect(ca.body.data).toEqual({
      title: 'Privacidad propia',
      text: 'Texto',
      redirecTo: 'https://test.example/privacidad',
    });
  });
});
