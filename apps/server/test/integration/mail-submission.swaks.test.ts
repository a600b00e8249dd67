import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailDaemons, SELF_SIGNED_NAME, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { type OpenDkim, startOpenDkim } from '../../../../scripts/daemons/opendkim.ts';
import { type PostfixSink, startPostfixSink } from '../../../../scripts/daemons/postfix-sink.ts';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { verifyDkim } from '../support/dkim-verify.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { curl, opensslClient, swaks } from '../support/mail-clients.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

/**
 * Mail clients against the deploy/ templates on real daemons: Dovecot (IMAP with STARTTLS, IMAPS,
 * the SASL logins), Postfix (port 25, submission with STARTTLS and with implicit TLS), OpenDKIM
 * signing, and a second Postfix standing for the internet. The clients are the real ones: swaks,
 * curl and openssl. A client "from elsewhere" binds 127.0.0.2: the daemons listen on 127.0.0.1
 * and count only that address as this host.
 */
const ELSEWHERE = '127.0.0.2';

/**
 * A stand-in for the panel's sending-limit policy service (Postfix's policy delegation protocol:
 * `name=value` lines, an empty line, one `action=` answer): it refuses one login and lets every
 * other message through, and keeps the requests it saw. The real service has tests of its own;
 * this one proves the submission services ask it.
 */
async function startPolicyStandIn(refusedLogin: string) {
  const requests: Record<string, string>[] = [];
  const server: Server = createServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const request = Object.fromEntries(
          buffered
            .slice(0, end)
            .split('\n')
            .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
        );
        buffered = buffered.slice(end + 2);
        requests.push(request);
        const refused = request.sasl_username === refusedLogin;
        socket.write(refused ? 'action=450 4.7.1 Sending limit reached, try later\n\n' : 'action=DUNNO\n\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    service: `inet:127.0.0.1:${address.port}`,
    requests,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe.each(DATABASE_KINDS)('mail clients on submission, IMAP and TLS (panel on %s)', (kind) => {
  let database: TestDatabase;
  let pdns: PowerDns;
  let opendkim: OpenDkim;
  let sink: PostfixSink;
  let mail: MailDaemons;
  let policy: Awaited<ReturnType<typeof startPolicyStandIn>>;
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  let id: number;
  const domain = `envio-${kind}.test`;
  const otherDomain = `ajeno-${kind}.test`;
  const outside = `fuera-${kind}.test`;
  const password = 'submission password 1';

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-submitdb-'));
    chmodSync(folder, 0o777);
    database = await createTestDatabase(kind, { sqliteFile: path.join(folder, 'panel.sqlite') });
    account = await buildAccount(database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true, hasMail: true } },
    });
    other = await buildAccount(database.db, {
      domainName: otherDomain,
      resources: { [otherDomain]: { hasService: true, hasMail: true } },
    });
    id = account.resources[domain] as number;
    if (kind === 'sqlite') for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    pdns = await startPowerDns();
    opendkim = await startOpenDkim();
    sink = await startPostfixSink(outside, 'buzon');
    policy = await startPolicyStandIn(`limitado@${domain}`);
    mail = await startMailDaemons(
      kind === 'sqlite' ? { kind, file: database.url as string } : { kind, url: database.url as string },
      undefined,
      // The internet is the sink: mail for its domain leaves through Postfix's smtp client.
      {
        postfixMainCf: `${opendkim.postfixMainCf}transport_maps = inline:{ ${outside}=smtp:[127.0.0.1]:${sink.port} }\n`,
        policyService: policy.service,
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
        // what the set-up documents advertise: the ports this test's daemons answer on
        'mail.imapPort': mail.imapPort,
        'mail.imapSslPort': mail.imapsPort,
        'mail.smtpPort': mail.submissionPort,
        'mail.smtpSslPort': mail.submissionsPort,
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'dns.nameservers': ['ns1.provider.test', 'ns2.provider.test'],
        'registry.resolvers': [`127.0.0.1:${pdns.dnsPort}`],
      },
    });
    cookie = await t.login(account.domainName, account.username, account.password);
    for (const name of ['ventas', 'info', 'limitado']) {
      const { body } = await t.call('POST', `service/${id}/correo/create/`, { name, password }, { cookie });
      expect(body.system.errors).toEqual([]);
    }
    for (const [name, target] of [
      ['equipo', `ventas@${domain}`],
      // the catch-all delivers to ventas too, and gives it no right to send as the domain's other addresses
      ['', `ventas@${domain}`],
    ] as const) {
      const { body } = await t.call('POST', `service/${id}/alias/create/`, { name, target: [target] }, { cookie });
      expect(body.system.errors).toEqual([]);
    }
    // Another customer: a mailbox of its own, and an alias it points at this customer's mailbox.
    const otherId = other.resources[otherDomain] as number;
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    expect(
      (await t.call('POST', `service/${otherId}/correo/create/`, { name: 'jefe', password }, { cookie: otherCookie }))
        .body.system.errors,
    ).toEqual([]);
    expect(
      (
        await t.call(
          'POST',
          `service/${otherId}/alias/create/`,
          { name: 'reenvio', target: [`ventas@${domain}`] },
          { cookie: otherCookie },
        )
      ).body.system.errors,
    ).toEqual([]);
    // The domain's zone is hosted here, and its DKIM key made and published by the first look.
    expect((await t.call('GET', `service/${id}/dns/list/`, {}, { cookie })).body.system.errors).toEqual([]);
    const auth = await t.call<MailAuthData>('GET', MAIL_AUTH_API.view(id), {}, { cookie });
    expect(auth.body.system.errors).toEqual([]);
    expect(auth.body.data.dkim.keys.every((key) => key.record.lookup === 'found')).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await sink?.stop();
    await policy?.stop();
    await opendkim?.stop();
    await pdns?.stop();
    await database?.destroy();
  });

  const chain = () => path.join(mail.tlsDir, 'default', 'fullchain.pem');
  /**
   * A message through a submission port from another host (neither Postfix's mynetworks nor
   * OpenDKIM's internal hosts: the login alone lets it relay and be signed); the SMTP dialogue as
   * swaks shows it.
   */
  const submit = (
    port: number,
    mode: '--tls' | '--tlsc',
    options: { login?: string; from: string; to: string; subject: string },
  ) =>
    swaks([
      '--server',
      `127.0.0.1:${port}`,
      '--local-interface',
      ELSEWHERE,
      mode,
      '--auth',
      'PLAIN',
      '--auth-user',
      options.login ?? `ventas@${domain}`,
      '--auth-password',
      password,
      '--from',
      options.from,
      '--to',
      options.to,
      '--header',
      `Subject: ${options.subject}`,
      '--body',
      `${options.subject}\nUna línea.\n`,
    ]);
  const imapHas = async (user: string, subject: string) => {
    const search = await curl([
      '--cacert',
      chain(),
      '--resolve',
      `${SELF_SIGNED_NAME}:${mail.imapsPort}:127.0.0.1`,
      '--user',
      `${user}:${password}`,
      '-X',
      `SEARCH SUBJECT "${subject}"`,
      `imaps://${SELF_SIGNED_NAME}:${mail.imapsPort}/INBOX`,
    ]);
    return /\* SEARCH \d+/.test(search.output);
  };
  const waitInMailbox = async (user: string, subject: string) => {
    for (let i = 0; i < 200; i++) {
      if (await imapHas(user, subject)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };
  const fromSink = async (subject: string) => {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const found = sink.messages().find((message) => message.includes(subject));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`"${subject}" never reached the sink; Postfix log:\n${sink.log()}`);
  };

  it('offers no AUTH before STARTTLS on submission, and AUTH once the session is encrypted', async () => {
    const clear = await swaks(['--server', `127.0.0.1:${mail.submissionPort}`, '--quit-after', 'EHLO']);
    expect(clear.output).toMatch(/250-STARTTLS/);
    expect(clear.output).not.toMatch(/AUTH/);
    const encrypted = await swaks(['--server', `127.0.0.1:${mail.submissionPort}`, '--tls', '--quit-after', 'EHLO']);
    expect(encrypted.code).toBe(0);
    expect(encrypted.output).toMatch(/<~ {2}250[- ]AUTH PLAIN LOGIN/);
    // a message without a login is refused, even inside TLS
    const anonymous = await swaks([
      '--server',
      `127.0.0.1:${mail.submissionPort}`,
      '--tls',
      '--from',
      `ventas@${domain}`,
      '--to',
      `info@${domain}`,
    ]);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.output).toMatch(/<~\* 5\d\d /);
  });

  it('delivers from 587 with STARTTLS and a login to another hosted mailbox, read back over IMAPS', async () => {
    const sent = await submit(mail.submissionPort, '--tls', {
      from: `ventas@${domain}`,
      to: `info@${domain}`,
      subject: 'Por el 587',
    });
    expect(sent.output).toMatch(/<~ {2}250 2\.0\.0 Ok: queued/);
    expect(sent.code).toBe(0);
    expect(await waitInMailbox(`info@${domain}`, 'Por el 587')).toBe(true);
  });

  it('delivers from 465 with implicit TLS to an outside address, DKIM-signed and verified on arrival', async () => {
    const sent = await submit(mail.submissionsPort, '--tlsc', {
      from: `ventas@${domain}`,
      to: `buzon@${outside}`,
      subject: 'Por el 465',
    });
    expect(sent.code).toBe(0);
    const message = await fromSink('Por el 465');
    expect(message).toMatch(/^DKIM-Signature:/m);
    const results = await verifyDkim(message, domain, pdns);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((result) => result.d === domain && result.ok)).toBe(true);
    // the login is not written into the message (smtpd_sasl_authenticated_header = no)
    expect(message).not.toContain('Authenticated sender');
  });

  it('lets a mailbox send as an alias of its own account that delivers to it', async () => {
    const sent = await submit(mail.submissionsPort, '--tlsc', {
      from: `equipo@${domain}`,
      to: `buzon@${outside}`,
      subject: 'Como el equipo',
    });
    expect(sent.code).toBe(0);
    expect(await fromSink('Como el equipo')).toMatch(/^From: equipo@/m);
  });

  it('refuses a sender the login does not own: another mailbox, a catch-all address, another customer’s', async () => {
    for (const [from, port, mode] of [
      [`info@${domain}`, mail.submissionPort, '--tls'],
      [`nadie@${domain}`, mail.submissionsPort, '--tlsc'],
      [`jefe@${otherDomain}`, mail.submissionPort, '--tls'],
      // the other customer's alias delivers to this mailbox: still the other customer's address
      [`reenvio@${otherDomain}`, mail.submissionsPort, '--tlsc'],
      ['alguien@example.org', mail.submissionPort, '--tls'],
    ] as const) {
      const refused = await submit(port, mode, { from, to: `buzon@${outside}`, subject: `Suplantando ${from}` });
      expect(refused.code, from).not.toBe(0);
      expect(refused.output, from).toMatch(/<~\* 553 5\.7\.1 .*Sender address rejected: not owned by user/);
    }
    // and a wrong password is refused at AUTH
    const wrong = await swaks([
      '--server',
      `127.0.0.1:${mail.submissionPort}`,
      '--tls',
      '--auth',
      'PLAIN',
      '--auth-user',
      `ventas@${domain}`,
      '--auth-password',
      'not the password',
      '--quit-after',
      'AUTH',
    ]);
    expect(wrong.output).toMatch(/<~\* 535 5\.7\.8/);
  });

  it('takes mail for the hosted domains on port 25 from anyone, and relays for nobody outside', async () => {
    const relay = await swaks([
      '--server',
      `127.0.0.1:${mail.smtpPort}`,
      '--local-interface',
      ELSEWHERE,
      '--from',
      `ventas@${domain}`,
      '--to',
      `buzon@${outside}`,
    ]);
    expect(relay.output).toMatch(/<\*\* 554 5\.7\.1 .*Relay access denied/);
    const inbound = await swaks([
      '--server',
      `127.0.0.1:${mail.smtpPort}`,
      '--local-interface',
      ELSEWHERE,
      '--from',
      'someone@example.org',
      '--to',
      `info@${domain}`,
      '--header',
      'Subject: Desde fuera',
    ]);
    expect(inbound.code).toBe(0);
    expect(await waitInMailbox(`info@${domain}`, 'Desde fuera')).toBe(true);
    // no AUTH on the MX port, with or without TLS
    const ehlo = await swaks(['--server', `127.0.0.1:${mail.smtpPort}`, '--tls', '--quit-after', 'EHLO']);
    expect(ehlo.code).toBe(0);
    expect(ehlo.output).not.toMatch(/AUTH/);
  });

  it('logs in over IMAPS and over IMAP after STARTTLS with a certificate for the mail host', async () => {
    const imaps = await curl([
      '--cacert',
      chain(),
      '--resolve',
      `${SELF_SIGNED_NAME}:${mail.imapsPort}:127.0.0.1`,
      '--user',
      `info@${domain}:${password}`,
      `imaps://${SELF_SIGNED_NAME}:${mail.imapsPort}/`,
    ]);
    expect(imaps.code).toBe(0);
    expect(imaps.output).toContain('INBOX');
    const starttls = await opensslClient(
      [
        '-connect',
        `127.0.0.1:${mail.imapPort}`,
        '-starttls',
        'imap',
        '-servername',
        SELF_SIGNED_NAME,
        '-verify_hostname',
        SELF_SIGNED_NAME,
        '-CAfile',
        chain(),
        '-verify_return_error',
        '-ign_eof',
      ],
      `a1 LOGIN "info@${domain}" "${password}"\r\na2 LOGOUT\r\n`,
    );
    expect(starttls.output).toMatch(/Verify return code: 0 \(ok\)/);
    expect(starttls.output).toMatch(/a1 OK/);
  });

  it('refuses an IMAP login before STARTTLS from another host, and takes it after', async () => {
    const url = `imap://127.0.0.1:${mail.imapPort}/`;
    const user = `info@${domain}:${password}`;
    const clear = await curl(['--interface', ELSEWHERE, '--user', user, url]);
    expect(clear.code).toBe(67);
    const tls = await curl(['--interface', ELSEWHERE, '--ssl-reqd', '--cacert', chain(), '-k', '--user', user, url]);
    expect(tls.code).toBe(0);
    // on this host itself (the panel, the WebMail) a login without TLS still works
    expect((await mail.imap(`info@${domain}`, password)).code).toBe(0);
  });

  it('asks the policy service before taking a submitted message, and passes its refusal on', async () => {
    const refused = await submit(mail.submissionPort, '--tls', {
      login: `limitado@${domain}`,
      from: `limitado@${domain}`,
      to: `buzon@${outside}`,
      subject: 'Uno de más',
    });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/<~\* 450 4\.7\.1 .*Sending limit reached, try later/);
    // what the limit counts by: the login, the sender and the recipients of each message
    expect(policy.requests).toContainEqual(
      expect.objectContaining({
        request: 'smtpd_access_policy',
        protocol_state: 'DATA',
        sasl_username: `limitado@${domain}`,
        sender: `limitado@${domain}`,
        recipient_count: '1',
      }),
    );
    expect(policy.requests.some((request) => request.sasl_username === `ventas@${domain}`)).toBe(true);
  });

  it('hands mail clients an autoconfig whose ports and socket types are the ones that answer', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/mail/config-v1.1.xml?emailaddress=info%40${domain}`,
      headers: { host: `autoconfig.${domain}` },
    });
    expect(response.statusCode).toBe(200);
    const provider = new XMLParser({ ignoreAttributes: false }).parse(response.body).clientConfig.emailProvider;
    const servers = [...provider.incomingServer, ...provider.outgoingServer] as {
      '@_type': 'imap' | 'smtp';
      port: number;
      socketType: 'SSL' | 'STARTTLS';
      authentication: string;
    }[];
    expect(servers.map((s) => `${s['@_type']} ${s.port} ${s.socketType}`).sort()).toEqual(
      [
        `imap ${mail.imapsPort} SSL`,
        `imap ${mail.imapPort} STARTTLS`,
        `smtp ${mail.submissionsPort} SSL`,
        `smtp ${mail.submissionPort} STARTTLS`,
      ].sort(),
    );
    for (const server of servers) {
      expect(server.authentication).toBe('password-cleartext');
      if (server['@_type'] === 'imap') {
        const scheme = server.socketType === 'SSL' ? 'imaps' : 'imap';
        const tls = server.socketType === 'STARTTLS' ? ['--ssl-reqd'] : [];
        const login = await curl([
          ...tls,
          '--interface',
          ELSEWHERE,
          '--cacert',
          chain(),
          '--resolve',
          `${SELF_SIGNED_NAME}:${server.port}:127.0.0.1`,
          '--user',
          `info@${domain}:${password}`,
          `${scheme}://${SELF_SIGNED_NAME}:${server.port}/`,
        ]);
        expect(login.code, `${scheme} ${server.port}`).toBe(0);
      } else {
        const login = await swaks([
          '--server',
          `127.0.0.1:${server.port}`,
          server.socketType === 'SSL' ? '--tlsc' : '--tls',
          '--auth',
          'PLAIN',
          '--auth-user',
          `info@${domain}`,
          '--auth-password',
          password,
          '--quit-after',
          'AUTH',
        ]);
        expect(login.output, `smtp ${server.port}`).toMatch(/<~ {2}235 2\.7\.0 Authentication successful/);
      }
    }
  });
});
