import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailDaemons, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { type OpenDkim, startOpenDkim } from '../../../../scripts/daemons/opendkim.ts';
import { type PostfixSink, startPostfixSink } from '../../../../scripts/daemons/postfix-sink.ts';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { txtOf, verifyDkim } from '../support/dkim-verify.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('DKIM signing by a real OpenDKIM behind Postfix (panel on %s)', (kind) => {
  let database: TestDatabase;
  let pdns: PowerDns;
  let opendkim: OpenDkim;
  let sink: PostfixSink;
  let mail: MailDaemons;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  const domain = `firma-${kind}.test`;
  const sinkDomain = `destino-${kind}.test`;

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-dkimdb-'));
    chmodSync(folder, 0o777);
    database = await createTestDatabase(kind, { sqliteFile: path.join(folder, 'panel.sqlite') });
    account = await buildAccount(database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true, hasMail: true } },
    });
    id = account.resources[domain] as number;
    if (kind === 'sqlite') for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    pdns = await startPowerDns();
    opendkim = await startOpenDkim();
    sink = await startPostfixSink(sinkDomain, 'buzon');
    // Mail for the sink's domain leaves the panel's Postfix through its smtp client, past OpenDKIM.
    mail = await startMailDaemons(
      kind === 'sqlite' ? { kind, file: database.url as string } : { kind, url: database.url as string },
      undefined,
      {
        postfixMainCf: `${opendkim.postfixMainCf}transport_maps = inline:{ ${sinkDomain}=smtp:[127.0.0.1]:${sink.port} }\n`,
      },
    );
    t = await buildTestApp(kind, {
      database,
      config: {
        'mail.root': mail.mailRoot,
        'mail.doveadmConfig': mail.doveadmConfig,
        'mail.opendkimDir': opendkim.tablesDir,
        'mail.opendkimPidFile': opendkim.pidFile,
        'mail.opendkimUid': opendkim.uid,
        'mail.opendkimGid': opendkim.gid,
        // the old selector is withdrawn at the first look after the switch
        'mail.dkimRetireSeconds': 0,
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        // "resolves" is asked of the DNS server the world would ask: the test's PowerDNS
        'registry.resolvers': [`127.0.0.1:${pdns.dnsPort}`],
      },
    });
    cookie = await t.login(account.domainName, account.username, account.password);
    // The service's zone is hosted here: its first read creates and publishes it.
    expect((await t.call('GET', `service/${id}/dns/list/`, {}, { cookie })).body.system.errors).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await sink?.stop();
    await opendkim?.stop();
    await pdns?.stop();
    await database?.destroy();
  });

  const view = async (call = 'view' as 'view' | 'rotate') => {
    const { body } = await t.call<MailAuthData>(
      call === 'view' ? 'GET' : 'POST',
      MAIL_AUTH_API[call](id),
      {},
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
    return body.data;
  };
  /** Sends one message from the domain to the sink; answers it as delivered there. */
  const sendAndReceive = async (subject: string) => {
    const before = sink.messages().length;
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: mail.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ from: `ventas@${domain}`, to: `buzon@${sinkDomain}`, subject, text: `${subject}\nUna línea.\n` });
    const messages = await sink.waitForMessages(before + 1, 20_000);
    return messages.find((message) => message.includes(subject)) as string;
  };
  const verify = (message: string) => verifyDkim(message, domain, pdns);

  let first: MailAuthData;

  it('makes the domain’s keys, publishes them in the hosted zone at once, and finds them through DNS', async () => {
    first = await view();
    expect(first.hosted).toBe(true);
    expect(first.dkim.rotation).toBe('idle');
    expect(first.dkim.keys.map((key) => `${key.algorithm} ${key.state}`)).toEqual(['rsa active']);
    for (const key of first.dkim.keys) {
      expect(key.record.published).toBe(true);
      expect(key.record.lookup).toBe('found');
      expect(txtOf(await pdns.dig(`${key.selector}._domainkey.${domain}`, 'TXT'))).toEqual([key.record.value]);
    }
    const rsa = first.dkim.keys.find((key) => key.algorithm === 'rsa');
    expect(rsa?.record.value).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjAN/);
    // the default zone's SPF and DMARC, found the same way
    expect(first.spf.record.lookup).toBe('found');
    expect(first.dmarc).toMatchObject({ policy: 'none', pct: 100 });
    expect(txtOf(await pdns.dig(`_dmarc.${domain}`, 'TXT'))[0]).toMatch(/^v=DMARC1; p=none; rua=mailto:/);
  });

  it('keeps the private keys sealed at rest', async () => {
    const rows = await database.db.selectFrom('mail_dkim_keys').select('private_key').execute();
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const row of rows) {
      expect(row.private_key).toMatch(/^v1\./);
      expect(row.private_key).not.toContain('PRIVATE KEY');
    }
    // In the clear only for the signer: its own files, readable by OpenDKIM's user alone.
    const folder = path.join(opendkim.tablesDir, 'keys', domain);
    const files = readdirSync(folder);
    expect(files).toEqual(first.dkim.keys.map((key) => `${key.selector}.private`));
    for (const file of files) {
      const info = statSync(path.join(folder, file));
      expect(info.mode & 0o777).toBe(0o600);
      expect(info.uid).toBe(opendkim.uid);
    }
  });

  it('signs a message leaving Postfix, and the signatures verify against the keys PowerDNS serves', async () => {
    const message = await sendAndReceive('Firmado primero');
    expect(message).toMatch(/^DKIM-Signature:/m);
    const results = await verify(message);
    expect(results.map((r) => `${r.d} ${r.s} ${r.a} ${r.ok}`).sort()).toEqual(
      first.dkim.keys.map((key) => `${domain} ${key.selector} rsa-sha256 true`).sort(),
    );
  });

  it('rotates in one action: the new selector is published, signing switches, the old record is withdrawn', async () => {
    const rotated = await view('rotate');
    const fresh = rotated.dkim.keys.filter((key) => !first.dkim.keys.some((old) => old.selector === key.selector));
    expect(fresh).toHaveLength(1);
    for (const key of fresh) {
      expect(key.record.published).toBe(true);
      expect(txtOf(await pdns.dig(`${key.selector}._domainkey.${domain}`, 'TXT'))).toEqual([key.record.value]);
    }
    // The new selectors resolved at once through PowerDNS: signing switched during the call; the old
    // keys retire with no delay here, so the next look withdraws their records.
    expect(fresh.map((key) => key.state)).toEqual(['active']);
    const after = await view();
    expect(after.dkim.rotation).toBe('idle');
    expect(after.dkim.keys.map((key) => key.selector).sort()).toEqual(fresh.map((key) => key.selector).sort());
    for (const old of first.dkim.keys) {
      expect(await pdns.dig(`${old.selector}._domainkey.${domain}`, 'TXT')).toEqual([]);
    }

    const message = await sendAndReceive('Firmado tras rotar');
    const results = await verify(message);
    expect(results.map((r) => `${r.s} ${r.ok}`).sort()).toEqual(fresh.map((key) => `${key.selector} true`).sort());
  });
});
