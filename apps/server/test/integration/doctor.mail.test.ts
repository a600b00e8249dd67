import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailbox } from '@panel247/contract/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileAsync } from '../../../../scripts/daemons/daemon-harness.ts';
import { type MailDaemons, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { loadConfig } from '../../src/config.ts';
import { customerChecks } from '../../src/drivers/doctor/customer-checks.ts';
import type { DaemonCheck } from '../../src/drivers/doctor/daemon-check.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/**
 * doctor's mail probes on Debian's Dovecot and Postfix (the deploy/ templates, reading the panel's
 * SQLite database): the probe mailbox logs in over IMAP and submission after STARTTLS; with
 * Dovecot's password database pointing elsewhere both logins are refused, and doctor says so
 * with the fix, never with the password.
 */
describe('doctor: IMAP and submission logins on real Dovecot and Postfix', () => {
  let database: TestDatabase;
  let mail: MailDaemons;
  let t: TestApp;
  let account: BuiltAccount;
  const domain = 'sonda.test';
  const password = 'probe password 1';
  let sqlConf: string;
  let goodSqlConf: string;
  /** The panel's SQLite database and data folder. */
  const folder = mkdtempSync(path.join(tmpdir(), 'p247-doctor-maildb-'));

  const probes = async (): Promise<Record<string, DaemonCheck>> => {
    const config = loadConfig({
      PANEL_DATA_DIR: folder,
      PANEL_MAIL_DOVEADM_CONFIG: mail.doveadmConfig,
      PANEL_MAIL_IMAP_PORT: String(mail.imapPort),
      PANEL_MAIL_SMTP_PORT: String(mail.submissionPort),
      PANEL_DOCTOR_MAIL_LOGIN: `doctor@${domain}`,
      PANEL_DOCTOR_MAIL_PASSWORD: password,
    });
    return Object.fromEntries((await customerChecks(config)).map((check) => [check.name, check]));
  };
  /** Dovecot reads its configuration again (its auth process with it) and forgets cached logins. */
  const reloadDovecot = async () => {
    await execFileAsync('doveadm', ['-c', mail.doveadmConfig, 'reload']);
    await execFileAsync('doveadm', ['-c', mail.doveadmConfig, 'auth', 'cache', 'flush']).catch(() => undefined);
  };
  /** The probes until `done` accepts them: a reload takes effect in the background. */
  const probesUntil = async (done: (checks: Record<string, DaemonCheck>) => boolean) => {
    let last: Record<string, DaemonCheck> = {};
    for (let attempt = 0; attempt < 60; attempt++) {
      last = await probes();
      if (done(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return last;
  };

  beforeAll(async () => {
    chmodSync(folder, 0o777);
    database = await createTestDatabase('sqlite', { sqliteFile: path.join(folder, 'panel.sqlite') });
    account = await buildAccount(database.db, { domainName: domain, resources: { [domain]: { hasMail: true } } });
    for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    mail = await startMailDaemons({ kind: 'sqlite', file: database.url as string });
    t = await buildTestApp('sqlite', {
      database,
      config: { 'mail.root': mail.mailRoot, 'mail.doveadmConfig': mail.doveadmConfig },
    });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const { body } = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${account.resources[domain]}/correo/create/`,
      { name: 'doctor', password },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    sqlConf = path.join(path.dirname(mail.doveadmConfig), 'dovecot-sql.conf.ext');
    goodSqlConf = readFileSync(sqlConf, 'utf8');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await database?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the probe mailbox logs in over IMAP and submission, both after STARTTLS', async () => {
    const found = await probes();
    expect(found['imap login']).toMatchObject({ ok: true });
    expect(found['imap login']?.detail).toBe(
      `127.0.0.1:${mail.imapPort}: STARTTLS and the login of doctor@${domain} accepted`,
    );
    expect(found['submission login']).toMatchObject({ ok: true });
    expect(found['submission login']?.detail).toBe(
      `127.0.0.1:${mail.submissionPort}: STARTTLS and AUTH of doctor@${domain} accepted`,
    );
  });

  it('Dovecot’s password database pointing elsewhere: both logins fail with the fix, the password never said', async () => {
    // what a guide that installs the file in one place and the template reading another leads to
    writeFileSync(sqlConf, goodSqlConf.replace(/^connect\s*=.*$/m, 'connect = /nonexistent/panel.sqlite'));
    try {
      await reloadDovecot();
      const found = await probesUntil((checks) => !checks['imap login']?.ok && !checks['submission login']?.ok);
      expect(found['imap login']).toMatchObject({ ok: false });
      expect(found['imap login']?.detail).toContain(`refuses the login of doctor@${domain}`);
      expect(found['imap login']?.fix).toContain(`doveadm auth test doctor@${domain}`);
      expect(found['submission login']).toMatchObject({ ok: false });
      expect(found['submission login']?.fix).toContain('smtpd_sasl_type = dovecot');
      expect(JSON.stringify(found)).not.toContain(password);
    } finally {
      writeFileSync(sqlConf, goodSqlConf);
      await reloadDovecot();
    }
    const again = await probesUntil((checks) => Boolean(checks['imap login']?.ok && checks['submission login']?.ok));
    expect(again['imap login']).toMatchObject({ ok: true });
    expect(again['submission login']).toMatchObject({ ok: true });
  });
});
