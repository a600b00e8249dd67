import { Resolver } from 'node:dns/promises';
import nodemailer from 'nodemailer';
import type { AppConfig } from '../../config.ts';
import { CUSTOMER_CHECK_TIMEOUT_MS, checked, type DaemonCheck, NothingToCheck, skipped } from './daemon-check.ts';
import { LineConversation } from './line-conversation.ts';
import { hostPort } from './network-checks.ts';
import { phpPageChecks } from './php-page-check.ts';

/**
 * How long a probe's client waits for each answer. A refused login is answered late on purpose
 * (Dovecot's auth_failure_delay, Postfix's error sleep): the probes get more time than the
 * daemon checks, so a refusal is reported as one, not as a timeout.
 */
const PROBE_TIMEOUT_MS = 10_000;

/** An IMAP quoted string (RFC 3501): backslash and double quote escaped. */
function imapQuoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}

/** Logs in over IMAP after STARTTLS, as a mail client on port 143 does, and logs out. */
export async function imapLogin(address: string, login: string, password: string, signal: AbortSignal) {
  const { host, port } = hostPort(address);
  const imap = await LineConversation.open(host, port, signal);
  try {
    const greeting = await imap.reply((line) => line.startsWith('* '));
    if (!greeting.startsWith('* OK')) throw new Error(`${address} greets "${greeting.slice(0, 60)}"`);
    imap.send('d1 STARTTLS');
    const tls = await imap.reply((line) => line.startsWith('d1 '));
    if (!tls.startsWith('d1 OK')) throw new Error(`${address} refuses STARTTLS: "${tls.slice(0, 80)}"`);
    await imap.upgrade(host);
    imap.send(`d2 LOGIN ${imapQuoted(login)} ${imapQuoted(password)}`);
    const answer = await imap.reply((line) => line.startsWith('d2 '));
    if (!answer.startsWith('d2 OK'))
      throw new Error(`${address} refuses the login of ${login}: "${answer.slice(3, 90)}"`);
    imap.send('d3 LOGOUT');
    return `${address}: STARTTLS and the login of ${login} accepted`;
  } finally {
    imap.close();
  }
}

/** Submission as a mail client does it: STARTTLS, then AUTH; nothing is sent. */
export async function submissionLogin(address: string, login: string, password: string) {
  const { host, port } = hostPort(address);
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: false,
    requireTLS: true,
    auth: { user: login, pass: password },
    // the probe asks whether customers can log in; certificates are `panel certs`' business
    tls: { rejectUnauthorized: false },
    connectionTimeout: PROBE_TIMEOUT_MS,
    greetingTimeout: PROBE_TIMEOUT_MS,
    socketTimeout: PROBE_TIMEOUT_MS,
    logger: false,
  });
  try {
    await transport.verify();
    return `${address}: STARTTLS and AUTH of ${login} accepted`;
  } catch (error) {
    // nodemailer's message carries the server's reply, never the password
    throw new Error(`${address}: ${(error as Error).message}`);
  } finally {
    transport.close();
  }
}

/** An FTP login (over AUTH TLS when the server offers it), then QUIT: nothing is uploaded. */
export async function ftpLogin(host: string, port: number, login: string, password: string, signal: AbortSignal) {
  const ftp = await LineConversation.open(host, port, signal);
  // a reply ends with the line "NNN text" (multi-line replies continue with "NNN-")
  const final = (line: string) => /^\d{3}( |$)/.test(line);
  try {
    const greeting = await ftp.reply(final);
    if (!greeting.startsWith('220')) throw new Error(`${ftp.where} greets "${greeting.slice(0, 60)}"`);
    ftp.send('AUTH TLS');
    const tls = await ftp.reply(final);
    if (tls.startsWith('234')) await ftp.upgrade(host);
    ftp.send(`USER ${login}`);
    let answer = await ftp.reply(final);
    if (answer.startsWith('331')) {
      ftp.send(`PASS ${password}`);
      answer = await ftp.reply(final);
    }
    if (!answer.startsWith('230'))
      throw new Error(`${ftp.where} refuses the login of ${login}: "${answer.slice(0, 80)}"`);
    ftp.send('QUIT');
    return `${ftp.where}: the login of ${login} accepted${tls.startsWith('234') ? ' over TLS' : ''}`;
  } finally {
    ftp.close();
  }
}

interface PowerDnsSetting {
  name: string;
  value: string;
}

/** Where PowerDNS answers DNS, from its own settings: the first local-address, local-port. */
export function dnsAddressFrom(settings: PowerDnsSetting[]): string {
  const value = (name: string) => settings.find((setting) => setting.name === name)?.value ?? '';
  const first =
    value('local-address')
      .split(/[\s,]+/)
      .filter(Boolean)[0] ?? '127.0.0.1';
  const port = value('local-port') || '53';
  // "127.0.0.1:5300" or "[::1]:5300" carry their own port
  const withPort = /^\[.*\]:\d+$/.test(first) || /^[\d.]+:\d+$/.test(first);
  const [host, ownPort] = withPort
    ? [first.slice(0, first.lastIndexOf(':')), first.slice(first.lastIndexOf(':') + 1)]
    : [first, port];
  // a wildcard is asked on loopback
  const bare = host.replace(/^\[|\]$/g, '');
  const asked = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '::1' : bare;
  return asked.includes(':') ? `[${asked}]:${ownPort}` : `${asked}:${ownPort}`;
}

/** The SOA of a zone PowerDNS hosts, asked over DNS (as resolvers do), not over its API. */
async function dnsAnswer(config: AppConfig, signal: AbortSignal): Promise<string> {
  const { powerdnsApiUrl, powerdnsApiKey, powerdnsServerId } = config.dns;
  const api = `${String(powerdnsApiUrl).replace(/\/$/, '')}/api/v1/servers/${encodeURIComponent(powerdnsServerId)}`;
  const get = async <T>(what: string): Promise<T> => {
    const response = await fetch(`${api}/${what}`, { signal, headers: { 'X-API-Key': powerdnsApiKey } });
    if (!response.ok) throw new Error(`the API answers HTTP ${response.status} for ${what}`);
    return (await response.json()) as T;
  };
  const zones = await get<{ name: string }[]>('zones');
  const zone = zones.map((item) => item.name).sort()[0];
  if (!zone) throw new NothingToCheck('no zone hosted yet');
  const address = config.doctor.dnsAddress ?? dnsAddressFrom(await get<PowerDnsSetting[]>('config'));
  const resolver = new Resolver({ timeout: PROBE_TIMEOUT_MS, tries: 1 });
  resolver.setServers([address]);
  signal.addEventListener('abort', () => resolver.cancel());
  const name = zone.replace(/\.$/, '');
  const soa = await resolver.resolveSoa(name).catch((error: { code?: string; message: string }) => {
    throw new Error(`SOA ${name} @${address}: ${error.code ?? error.message}`);
  });
  return `SOA ${name} @${address}: ${soa.nsname} serial ${soa.serial}`;
}

const MAIL_LOGIN_MISSING =
  'no probe login: set PANEL_DOCTOR_MAIL_LOGIN and PANEL_DOCTOR_MAIL_PASSWORD (docs/OPERATIONS.md, "Health and drift")';

function mailChecks(config: AppConfig): Promise<DaemonCheck>[] {
  if (config.mail.driver !== 'dovecot') {
    const why = 'the embedded mail driver has no IMAP or submission server to ask';
    return [skipped('imap login', why), skipped('submission login', why)];
  }
  const { mailLogin, mailPassword } = config.doctor;
  if (!mailLogin || !mailPassword)
    return [skipped('imap login', MAIL_LOGIN_MISSING), skipped('submission login', MAIL_LOGIN_MISSING)];
  const imap = config.doctor.imapAddress ?? `127.0.0.1:${config.mail.imapPort}`;
  const submission = config.doctor.submissionAddress ?? `127.0.0.1:${config.mail.smtpPort}`;
  const loginFix = `the login of PANEL_DOCTOR_MAIL_LOGIN (${mailLogin}) was refused or not answered: customers cannot log in either when Dovecot's passdb is wrong. Check that Dovecot runs, that dovecot.conf's passdb reads the dovecot-sql.conf.ext that reaches the panel's database (doveadm auth test ${mailLogin}), and that the probe login and password are still valid.`;
  return [
    checked(
      'imap login',
      `IMAP on ${imap} (PANEL_DOCTOR_IMAP_ADDRESS): ${loginFix}`,
      (signal) => imapLogin(imap, mailLogin, mailPassword, signal),
      CUSTOMER_CHECK_TIMEOUT_MS,
    ),
    checked(
      'submission login',
      `Submission on ${submission} (PANEL_DOCTOR_SUBMISSION_ADDRESS): Postfix's submission service must offer STARTTLS and take AUTH through Dovecot (smtpd_sasl_type = dovecot, smtpd_sasl_path); ${loginFix}`,
      () => submissionLogin(submission, mailLogin, mailPassword),
      CUSTOMER_CHECK_TIMEOUT_MS,
    ),
  ];
}

function ftpCheck(config: AppConfig): Promise<DaemonCheck> {
  if (config.hosting.ftpDriver !== 'proftpd')
    return skipped('ftp login', 'the embedded FTP driver has no FTP server to ask');
  const { ftpLogin: login, ftpPassword: password } = config.doctor;
  if (!login || !password) {
    return skipped(
      'ftp login',
      'no probe account: set PANEL_DOCTOR_FTP_LOGIN and PANEL_DOCTOR_FTP_PASSWORD (docs/OPERATIONS.md, "Health and drift")',
    );
  }
  const { ftpHost, ftpPort } = config.hosting;
  return checked(
    'ftp login',
    `ProFTPD on ${ftpHost}:${ftpPort} refused or did not answer the login of PANEL_DOCTOR_FTP_LOGIN (${login}): check that ProFTPD runs, that its SQL module reads the panel's accounts (on SQLite: npm run panel -- ftp sync rewrites PANEL_FTP_USERS_FILE), and that the probe account still exists with that password.`,
    (signal) => ftpLogin(ftpHost, ftpPort, login, password, signal),
    CUSTOMER_CHECK_TIMEOUT_MS,
  );
}

function dnsCheck(config: AppConfig): Promise<DaemonCheck> {
  if (config.dns.driver !== 'powerdns')
    return skipped('dns answer', 'the database DNS driver has no DNS server to ask');
  return checked(
    'dns answer',
    'PowerDNS must answer DNS for the zones it hosts: start it (systemctl start pdns), check local-address/local-port in pdns.conf (or PANEL_DOCTOR_DNS_ADDRESS), and republish the zones with npm run panel -- dns sync when one is missing from its backend.',
    (signal) => dnsAnswer(config, signal),
    CUSTOMER_CHECK_TIMEOUT_MS,
  );
}

/**
 * What a customer would hit, tried as a customer's client does: a PHP page through nginx, an IMAP
 * login, a submission login, a DNS answer, an FTP login. A probe that has nothing to ask (an
 * embedded driver, no probe login, no PHP site yet) is reported as skipped, with why.
 */
export async function customerChecks(config: AppConfig): Promise<DaemonCheck[]> {
  return Promise.all([...(await phpPageChecks(config)), ...mailChecks(config), dnsCheck(config), ftpCheck(config)]);
}
