/**
 * npm run bench:mail — figures, each against a baseline measured in the same run:
 *  1. A mailbox password changed through the API → the first IMAP login with the new password
 *     that Dovecot accepts, p50/p95 over 50 changes; baseline: one IMAP login with an unchanged
 *     password (what a login alone costs, through the same client). Aim: < 1 s.
 *  2. Forwarding changed through the API to a new address → a message sent right after reaches
 *     that address, p50/p95 over 50; baseline: a message through an unchanged alias to the same
 *     outside world (what the delivery alone costs). Aim: < 1 s.
 *  3. Autoresponder changed through the API to a new subject → a message from a new sender gets
 *     the reply with that subject, p50/p95 over 50; same baseline. Aim: < 1 s.
 *  4. The mail list's first page (as the web asks for it), p95 over 200 calls, for a service with
 *     10,000 mailboxes and aliases against one with 100. Aim: ≤ 2.0.
 * Real Postfix and Dovecot (with Pigeonhole) on loopback from the deploy/ templates, an SMTP sink
 * for the outside world (example.org), curl as the IMAP client. A benchmark never fails: it prints
 * and exits 0; only a broken setup exits 1.
 */
import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { startMailDaemons } from '../../../scripts/daemons/mail.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { AdminService, allKeys } from '../src/modules/admin/admin.service.ts';
import { seedScaleMail } from '../src/modules/mail/scale-mail.seed.ts';
import { LocalEventBus } from '../src/modules/realtime/event-bus.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';

const CHANGES = Number(process.env.BENCH_MAIL_CHANGES ?? 50);
const LIST_SAMPLES = Number(process.env.BENCH_MAIL_LIST_SAMPLES ?? 200);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
const ms = (value: number) => `${value.toFixed(0)} ms`;
const line = (label: string, values: number[]) =>
  `${label}: p50 ${ms(percentile(values, 50))} · p95 ${ms(percentile(values, 95))} (n=${values.length})`;

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    const found = await probe();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('timed out');
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-bench-mail-'));
  // the daemons read the panel's SQLite file: the folder and the file must be theirs to open
  chmodSync(dataDir, 0o777);
  const sqliteFile = path.join(dataDir, 'panel.sqlite');
  const { db } = openDatabase({ sqliteFile });
  await migrateToLatest(db);
  for (const file of readdirSync(dataDir)) chmodSync(path.join(dataDir, file), 0o666);
  const sink = await startSmtpSink();
  const mail = await startMailDaemons({ kind: 'sqlite', file: sqliteFile }, undefined, {
    postfixMainCf: `transport_maps = inline:{ example.org=smtp:[127.0.0.1]:${sink.port} }\n`,
  });
  const config = loadConfig(
    {},
    {
      dataDir,
      logLevel: 'silent',
      'captcha.provider': 'none',
      'mail.root': mail.mailRoot,
      'mail.doveadmConfig': mail.doveadmConfig,
    },
  );
  const events = new LocalEventBus();
  const { app } = await buildApp({ config, db, events, secretKey: Buffer.alloc(32, 1) });
  const now = () => Math.floor(Date.now() / 1000);
  const admin = new AdminService(db, events, now);
  await admin.ensureBrand({ slug: 'bench', company: 'Bench', isDefault: true });
  await admin.ensureAccount('bench.test', 'bench');
  await admin.ensureUser('bench.test', 'admin', 'bench password 1');
  const ids: Record<string, number> = {};
  for (const reference of ['live.test', 'big.test', 'small.test']) {
    ids[reference] = await admin.ensureResource('bench.test', { reference, hasMail: true });
    await admin.grant('bench.test', 'admin', reference, allKeys('write'));
  }
  await seedScaleMail(
    db,
    { id: ids['big.test'] as number, domain: 'big.test' },
    { mailboxes: 5_000, aliases: 5_000, quotaMb: 1024, password: 'scale password 1' },
    now(),
  );
  await seedScaleMail(
    db,
    { id: ids['small.test'] as number, domain: 'small.test' },
    { mailboxes: 50, aliases: 50, quotaMb: 1024, password: 'scale password 1' },
    now(),
  );

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${address}/p247/user/login/`, {
    method: 'POST',
    headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ domainName: 'bench.test', username: 'admin', password: 'bench password 1' }),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  const call = async <T>(url: string, params: Record<string, string | string[]> = {}) => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(params))
      for (const item of Array.isArray(value) ? value : [value]) body.append(key, item);
    const answer = (await fetch(`${address}/p247/${url}`, {
      method: 'POST',
      headers: { 'x-dd-request': '1', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    }).then((r) => r.json())) as { data: T; system: { valid: boolean; errors: string[] } };
    if (!answer.system.valid) throw new Error(`${url}: ${answer.system.errors.join(', ')}`);
    return answer.data;
  };
  const live = ids['live.test'] as number;
  const box = (
    await call<{ correo: { id: number } }>(`service/${live}/correo/create/`, {
      name: 'buzon',
      password: 'password 0 bench',
    })
  ).correo;
  await call(`service/${live}/alias/create/`, { name: 'fijo', target: ['fuera@example.org'] });
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: mail.smtpPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
  });
  const send = (from: string, to: string, subject: string) =>
    transport.sendMail({ from, to, subject, text: `${subject} body` });
  const arrived = (to: string, needle: string) =>
    until(() => sink.received.find((m) => m.to.includes(to) && m.raw.includes(needle)));
  const user = 'buzon@live.test';

  try {
    // 1. password → login
    const loginBase: number[] = [];
    const passwordEffect: number[] = [];
    for (let i = 1; i <= CHANGES; i++) {
      const current = `password ${i - 1} bench`;
      let start = performance.now();
      if ((await mail.imap(user, current)).code !== 0) throw new Error('login with the current password failed');
      loginBase.push(performance.now() - start);
      const next = `password ${i} bench`;
      start = performance.now();
      await call(`service/${live}/correo/${box.id}/changepassword/`, { password: next });
      await until(async () => ((await mail.imap(user, next)).code === 0 ? true : undefined));
      passwordEffect.push(performance.now() - start);
    }

    // 2. forward → delivery at the new target; 3. autoresponder → reply with the new subject
    const deliveryBase: number[] = [];
    const forwardEffect: number[] = [];
    const autoreplyEffect: number[] = [];
    for (let i = 1; i <= CHANGES; i++) {
      let start = performance.now();
      await send('base@example.org', 'fijo@live.test', `Base ${i}`);
      await arrived('fuera@example.org', `Base ${i}`);
      deliveryBase.push(performance.now() - start);

      start = performance.now();
      await call(`service/${live}/correo/${box.id}/rules/save/`, { forward: [`f${i}@example.org`], keepCopy: '1' });
      await send('base@example.org', user, `Reenvio ${i}`);
      await arrived(`f${i}@example.org`, `Reenvio ${i}`);
      forwardEffect.push(performance.now() - start);

      start = performance.now();
      await call(`service/${live}/correo/${box.id}/rules/save/`, {
        autoreply: '1',
        subject: `Ausente ${i}`,
        body: 'Vuelvo pronto',
        days: '1',
      });
      await send(`s${i}@example.org`, user, `Pregunta ${i}`);
      await arrived(`s${i}@example.org`, `Ausente ${i}`);
      autoreplyEffect.push(performance.now() - start);
    }

    // 4. the mail list at 10,000 addresses against 100
    const list = async (reference: string) => {
      const start = performance.now();
      await call(`service/${ids[reference]}/mail/list/`, { page: '1' });
      return performance.now() - start;
    };
    const big: number[] = [];
    const small: number[] = [];
    for (let i = 0; i < 10; i++) await Promise.all([list('big.test'), list('small.test')]);
    for (let i = 0; i < LIST_SAMPLES; i += 10) {
      for (let j = 0; j < 10; j++) big.push(await list('big.test'));
      for (let j = 0; j < 10; j++) small.push(await list('small.test'));
    }

    const p95 = (values: number[]) => percentile(values, 95);
    console.log(
      '\nMail: an API change to its effect on a real delivery or login (Postfix, Dovecot, Sieve on loopback)',
    );
    console.log(line('  baseline: IMAP login (curl), unchanged password', loginBase));
    console.log(line('  1. password change → first login with the new one', passwordEffect));
    console.log(line('  baseline: message through an unchanged alias → outside', deliveryBase));
    console.log(line('  2. forward change → message at the new target', forwardEffect));
    console.log(line('  3. autoresponder change → reply with the new subject', autoreplyEffect));
    const worst = Math.max(p95(passwordEffect), p95(forwardEffect), p95(autoreplyEffect));
    console.log(`  aim: < 1 s — ${worst < 1000 ? 'met' : 'missed'} (worst p95 ${ms(worst)})`);
    console.log('\nMail list, first page');
    console.log(line('  100 mailboxes + aliases', small));
    console.log(line('  10,000 mailboxes + aliases', big));
    const ratio = p95(big) / p95(small);
    console.log(`  p95 ratio 10,000 / 100: ${ratio.toFixed(2)} (aim ≤ 2.0 — ${ratio <= 2 ? 'met' : 'missed'})`);
  } finally {
    transport.close();
    await app.close();
    await mail.stop();
    await sink.close();
    await db.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
