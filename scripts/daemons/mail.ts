import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { selfSignedCertificate } from '../test-support/self-signed-certificate.ts';
import {
  execFileAsync,
  type Placement,
  type RunningDaemon,
  requireBinary,
  startForeground,
  temporaryPlacement,
  waitForPort,
} from './daemon-harness.ts';
import { fillDeployTemplate, POSTFIX_MAPS } from './deploy-template.ts';

const MAIL_UID = 8;
/** The host name of the self-signed certificate made when no certificate folder is given. */
export const SELF_SIGNED_NAME = 'mx.panel247.test';

export type MailDatabase = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface MailDaemons {
  /** IMAP with STARTTLS (a login before TLS is refused unless from loopback to loopback). */
  imapPort: number;
  /** IMAP over implicit TLS. */
  imapsPort: number;
  /** Port 25's role: mail for the hosted domains; relaying for 127.0.0.1 only; no AUTH. */
  smtpPort: number;
  /** Submission with STARTTLS and a login (587's role). */
  submissionPort: number;
  /** Submission over implicit TLS (465's role). */
  submissionsPort: number;
  /** The certificate folder: default/{key,fullchain}.pem, dovecot-sni.conf, postfix-sni. */
  tlsDir: string;
  mailRoot: string;
  doveadmConfig: string;
  masterUser: string;
  masterPassword: string;
  /** curl's IMAP client: resolves with curl's exit code (0 = logged in, 67 = login refused). */
  imap(user: string, password: string, urlPath?: string, extra?: string[]): Promise<{ code: number; stdout: string }>;
  /** The processes it started, by name (for a status). */
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

/** Debian's Dovecot and Postfix from the deploy/ templates, reading the panel's database. */
export async function startMailDaemons(
  database: MailDatabase,
  placement: Placement = temporaryPlacement,
  options: {
    /** Lines another daemon's kit adds to Postfix's main.cf (OpenDKIM's milter, a transport to a sink). */
    postfixMainCf?: string;
    /** A certificate folder in the layout above, kept up to date by someone else (ACME); when
     * absent, a self-signed certificate for mx.panel247.test is made in the mail folder. */
    tlsDir?: string;
    /** The submission services' policy service (`inet:127.0.0.1:PORT`): the sending rate limit. */
    policyService?: string;
    /** The server these daemons are (PANEL_NODE): they serve only the mail placed on it ('' : the unnamed machine). */
    node?: string;
    /** An address they also answer on besides loopback: a server's own, in its network namespace. */
    address?: string;
    /** rspamd's scanner (host:port, scripts/daemons/rspamd.ts) the spam filter asks; when absent, a port nobody serves (messages delivered unscanned). */
    spamScanner?: string;
  } = {},
): Promise<MailDaemons> {
  const node = options.node ?? '';
  const dovecot = requireBinary('dovecot', 'dovecot-imapd');
  // Pigeonhole runs the mailboxes' Sieve scripts (autoresponder, forwarding) in Dovecot's LMTP
  if (!existsSync('/usr/lib/dovecot/modules/lib90_sieve_plugin.so'))
    throw new Error(
      "Dovecot's Sieve plugin is missing: install Debian's dovecot-sieve (scripts/install-system-deps.sh)",
    );
  const postfix = requireBinary('postfix', 'postfix');
  const curl = requireBinary('curl', 'curl');
  const dir = await placement.folder('mail');
  chmodSync(dir, 0o755);
  const mailRoot = path.join(dir, 'mail');
  mkdirSync(mailRoot, { recursive: true });
  chownSync(mailRoot, MAIL_UID, MAIL_UID);
  const [imapPort, imapsPort, lmtpPort, smtpPort, submissionPort, submissionsPort] = [
    await placement.port('dovecot.imap'),
    await placement.port('dovecot.imaps'),
    await placement.port('dovecot.lmtp'),
    await placement.port('postfix.smtp'),
    await placement.port('postfix.submission'),
    await placement.port('postfix.submissions'),
  ];
  const masterPassword = randomBytes(16).toString('hex');
  const tlsDir = options.tlsDir ?? (await selfSignedTlsDir(path.join(dir, 'tls')));
  const postfixDir = path.join(dir, 'postfix');
  // Dovecot's auth socket for Postfix's SASL, for Postfix's user only (dovecot.conf.template).
  const saslSocket = path.join(dir, 'dovecot', 'auth-postfix');

  // Dovecot
  const dovecotDir = path.join(dir, 'dovecot');
  mkdirSync(dovecotDir, { recursive: true });
  chmodSync(dovecotDir, 0o755);
  const sqlConnect =
    database.kind === 'sqlite'
      ? { DRIVER: 'sqlite', CONNECT: database.file }
      : { DRIVER: 'pgsql', CONNECT: pgConnect(database.url) };
  const sqlConf = path.join(dovecotDir, 'dovecot-sql.conf.ext');
  const masterUsers = path.join(dovecotDir, 'master-users');
  // the spam filter's one program, run by Sieve as the mail user
  const sieveBinDir = path.join(dovecotDir, 'sieve-execute');
  mkdirSync(sieveBinDir, { recursive: true });
  chmodSync(sieveBinDir, 0o755);
  writeFileSync(
    path.join(sieveBinDir, 'panel247-spam-score'),
    fillDeployTemplate('dovecot/panel247-spam-score.template', {
      RSPAMD: options.spamScanner ?? `127.0.0.1:${await placement.port('rspamd.absent')}`,
    }),
    { mode: 0o755 },
  );
  writeFileSync(
    path.join(dovecotDir, 'dovecot.conf'),
    fillDeployTemplate('dovecot/dovecot.conf.template', {
      RUN_DIR: path.join(dovecotDir, 'run'),
      STATE_DIR: path.join(dovecotDir, 'state'),
      LOG_PATH: path.join(dovecotDir, 'dovecot.log'),
      LISTEN: options.address ? `127.0.0.1, ${options.address}` : '127.0.0.1',
      SQL_CONF: sqlConf,
      MASTER_USERS: masterUsers,
      MAIL_ROOT: mailRoot,
      IMAP_PORT: String(imapPort),
      IMAPS_PORT: String(imapsPort),
      LMTP_PORT: String(lmtpPort),
      TLS_DIR: tlsDir,
      SASL_SOCKET: saslSocket,
      AUTH_FAILURE_DELAY: '0',
      AUTH_WORKER_USER: 'root',
      SUBMISSION_HOST: `127.0.0.1:${smtpPort}`,
      SIEVE_BIN_DIR: sieveBinDir,
    }),
  );
  writeFileSync(
    sqlConf,
    fillDeployTemplate('dovecot/dovecot-sql.conf.ext.template', { ...sqlConnect, MAIL_ROOT: mailRoot, NODE: node }),
  );
  writeFileSync(masterUsers, `webmail:{PLAIN}${masterPassword}\n`, { mode: 0o644 });
  const dovecotConf = path.join(dovecotDir, 'dovecot.conf');
  const dovecotDaemon: RunningDaemon = startForeground(dovecot, ['-F', '-c', dovecotConf]);

  // Postfix
  mkdirSync(path.join(postfixDir, 'queue'), { recursive: true });
  mkdirSync(path.join(postfixDir, 'data'), { recursive: true });
  chmodSync(postfixDir, 0o755);
  const postfixUid = Number((await execFileAsync('id', ['-u', 'postfix'])).stdout.trim());
  chownSync(path.join(postfixDir, 'data'), postfixUid, 0);
  const connection =
    database.kind === 'sqlite'
      ? `dbpath = ${database.file}`
      : (() => {
          const url = new URL(database.url);
          return `hosts = ${url.hostname}:${url.port || 5432}\nuser = ${decodeURIComponent(url.username)}\npassword = ${decodeURIComponent(url.password)}\ndbname = ${url.pathname.slice(1)}`;
        })();
  const values = {
    DIR: postfixDir,
    QUEUE_DIR: path.join(postfixDir, 'queue'),
    DATA_DIR: path.join(postfixDir, 'data'),
    MAILLOG_FILE: path.join(postfixDir, 'postfix.log'),
    HOSTNAME: SELF_SIGNED_NAME,
    INET_INTERFACES: options.address ? `127.0.0.1, ${options.address}` : '127.0.0.1',
    INET_PROTOCOLS: 'ipv4',
    PORT: String(smtpPort),
    SUBMISSION_PORT: String(submissionPort),
    SUBMISSIONS_PORT: String(submissionsPort),
    LMTP_PORT: String(lmtpPort),
    MAPTYPE: database.kind === 'sqlite' ? 'sqlite' : 'pgsql',
    CONNECTION: connection,
    TLS_DIR: tlsDir,
    SASL_SOCKET: saslSocket,
    POLICY_SERVICE: policyServiceValue(options.policyService),
    NODE: node,
  };
  const extra = options.postfixMainCf ? `\n${options.postfixMainCf}` : '';
  writeFileSync(path.join(postfixDir, 'main.cf'), fillDeployTemplate('postfix-mail/main.cf.template', values) + extra);
  writeFileSync(path.join(postfixDir, 'master.cf'), fillDeployTemplate('postfix-mail/master.cf.template', values));
  for (const map of POSTFIX_MAPS) {
    writeFileSync(path.join(postfixDir, `${map}.cf`), fillDeployTemplate(`postfix-mail/${map}.cf.template`, values), {
      mode: 0o644,
    });
  }
  await prepareSniMaps(tlsDir, postfixDir);
  await execFileAsync(postfix, ['-c', postfixDir, 'check']);
  const postfixDaemon = startForeground(postfix, ['-c', postfixDir, 'start-fg']);

  try {
    for (const port of [imapPort, imapsPort, lmtpPort, smtpPort, submissionPort, submissionsPort])
      await waitForPort(port);
  } catch (error) {
    const logs = ['dovecot/dovecot.log', 'postfix/postfix.log']
      .map((file) => {
        try {
          return readFileSync(path.join(dir, file), 'utf8');
        } catch {
          return '';
        }
      })
      .join('\n');
    await dovecotDaemon.stop();
    await execFileAsync(postfix, ['-c', postfixDir, 'stop']).catch(() => undefined);
    await postfixDaemon.stop();
    throw new Error(
      `mail daemons did not start: ${(error as Error).message}\n${dovecotDaemon.output()}\n${postfixDaemon.output()}\n${logs}`,
    );
  }

  return {
    imapPort,
    imapsPort,
    smtpPort,
    submissionPort,
    submissionsPort,
    tlsDir,
    mailRoot,
    doveadmConfig: dovecotConf,
    masterUser: 'webmail',
    masterPassword,
    async imap(user, password, urlPath = '/', extra = []) {
      try {
        const { stdout } = await execFileAsync(curl, [
          '-s',
          '--max-time',
          '10',
          '--user',
          `${user}:${password}`,
          ...extra,
          `imap://127.0.0.1:${imapPort}${urlPath}`,
        ]);
        return { code: 0, stdout };
      } catch (error) {
        const failure = error as { code?: number; stdout?: string };
        return { code: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? '' };
      }
    },
    processes: () => ({ dovecot: dovecotDaemon.process.pid, postfix: postfixDaemon.process.pid }),
    async stop() {
      await execFileAsync(postfix, ['-c', postfixDir, 'stop']).catch(() => undefined);
      await postfixDaemon.stop();
      await dovecotDaemon.stop();
    },
  };
}

/** The policy service as the template takes it: `inet:127.0.0.1:PORT` (checked), or empty for none. */
function policyServiceValue(service: string | undefined): string {
  if (service === undefined) return '';
  if (!/^inet:127\.0\.0\.1:\d{1,5}$/.test(service))
    throw new Error(`policyService: expected inet:127.0.0.1:PORT, got ${service}`);
  return service;
}

/**
 * A certificate folder in the layout ACME fills: a self-signed certificate for mx.panel247.test
 * (kept when it is already there, as in the stack's kept folder) and no per-name certificates.
 */
async function selfSignedTlsDir(tlsDir: string): Promise<string> {
  requireBinary('openssl', 'openssl');
  const defaultDir = path.join(tlsDir, 'default');
  mkdirSync(defaultDir, { recursive: true, mode: 0o700 });
  const key = path.join(defaultDir, 'key.pem');
  const chain = path.join(defaultDir, 'fullchain.pem');
  if (!existsSync(key) || !existsSync(chain)) {
    await selfSignedCertificate({
      files: { cert: chain, key },
      subject: `/CN=${SELF_SIGNED_NAME}`,
      rsa: true,
      days: 825,
      extra: ['-sha256', '-addext', `subjectAltName=DNS:${SELF_SIGNED_NAME}`],
    });
    chmodSync(key, 0o600);
  }
  return tlsDir;
}

/** Postfix's SNI table must exist, compiled (`postmap -F` reads the chain files it names). */
async function prepareSniMaps(tlsDir: string, postfixDir: string): Promise<void> {
  const postmap = requireBinary('postmap', 'postfix');
  const table = path.join(tlsDir, 'postfix-sni');
  if (!existsSync(table)) writeFileSync(table, '', { mode: 0o644 });
  await execFileAsync(postmap, ['-c', postfixDir, '-F', `hash:${table}`]);
}

function pgConnect(url: string): string {
  const parsed = new URL(url);
  const parts = [
    `host=${parsed.hostname}`,
    `port=${parsed.port || 5432}`,
    `dbname=${parsed.pathname.slice(1)}`,
    `user=${decodeURIComponent(parsed.username)}`,
  ];
  if (parsed.password) parts.push(`password=${decodeURIComponent(parsed.password)}`);
  return parts.join(' ');
}
