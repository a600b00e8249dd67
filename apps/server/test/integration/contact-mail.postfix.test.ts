import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostfixSink, startPostfixSink } from '../../../../scripts/daemons/postfix-sink.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('contact messages delivered by a real Postfix (%s)', (kind) => {
  let postfix: PostfixSink;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;

  beforeAll(async () => {
    postfix = await startPostfixSink('brand.test', 'support');
    t = await buildTestApp(kind, {
      config: { 'smtp.url': `smtp://127.0.0.1:${postfix.port}`, 'smtp.from': 'panel@brand.test' },
    });
    account = await buildAccount(t.database.db, { domainName: 'postfix.test' });
    const admin = new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
    await admin.updateBrand('test-brand', { contactEmail: 'support@brand.test' });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await postfix?.stop();
  });

  it('lands the contact form in the brand’s mailbox with the customer as Reply-To', async () => {
    const { body } = await t.call(
      'POST',
      'contactmail/',
      { email: 'cliente@example.com', subject: 'Renovación', contents: '¿Cuándo caduca mi dominio?' },
      { cookie },
    );
    expect(body.system.valid).toBe(true);
    const [message] = await postfix.waitForMessages(1);
    expect(message).toMatch(/^Reply-To: cliente@example\.com/m);
    expect(message).toMatch(/^Delivered-To: support@brand\.test/m);
    expect(message).toMatch(/^Subject: .*Renovaci/m);
    expect(message).toContain('Account: postfix.test');
    const row = await t.database.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.sent_at).toBeGreaterThan(0);
  });

  it('lands the forgot-password request too, sent without a session', async () => {
    await t.call('POST', 'user/forgotpassword/', {
      domain: 'postfix.test',
      user: 'admin',
      name: 'Ada',
      email: 'ada@example.com',
      contents: 'Please help me in',
    });
    const messages = await postfix.waitForMessages(2);
    expect(messages.some((m) => m.includes('Name: Ada'))).toBe(true);
  });
});
