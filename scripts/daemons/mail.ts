import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  execFileAsync,
  type Placement,
  type RunningDaemon,
  requireBinary,
  startForeground,
  temporaryPlacement,
  waitForPort,
} from './daemon-harness.ts';
import { fillDeployTemplate } from './deploy-template.ts';

const MAIL_UID = 8;

export type MailDatabase = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface MailDaemons {
  imapPort: number;
  smtpPort: number;
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
  options: { postfixMainCf?: string } = {},
): Promise<MailDaemons> {
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
  const [imapPort, lmtpPort, smtpPort] = [
    await placement.port('dovecot.imap'),
    await placement.port('dovecot.lmtp'),
    await placement.port('postfix.smtp'),
  ];
  const masterPassword = randomBytes(16).toString('hex');

  // Dovecot
  const dovecotDir = path.join(dir, 'dovecot');
  mkdirSync(dovecotDir, { recursive: true });
  chmodSync(dovecotDir, 0o755);
  const sqlConnect =
    database.kind === 'sqlite'
      ? { DRIVER: 'sqlite', CONNECT: database.file }
      : { DRIVER: 'pgsql', CONNECT: pgConnect(database.url) };
  writeFileSync(
    path.join(dovecotDir, 'dovecot.conf'),
    fillDeployTemplate('dovecot/dovecot.conf.template', {
      DIR: dovecotDir,
      MAIL_ROOT: mailRoot,
      IMAP_PORT: String(imapPort),
      LMTP_PORT: String(lmtpPort),
      AUTH_FAILURE_DELAY: '0',
      AUTH_WORKER_USER: 'root',
      SUBMISSION_HOST: `127.0.0.1:${smtpPort}`,
    }),
  );
  writeFileSync(
    path.join(dovecotDir, 'dovecot-sql.conf.ext'),
    fillDeployTemplate('dovecot/dovecot-sql.conf.ext.template', { ...sqlConnect, MAIL_ROOT: mailRoot }),
  );
  writeFileSync(path.join(dovecotDir, 'master-users'), `webmail:{PLAIN}${masterPassword}\n`, { mode: 0o644 });
  const dovecotConf = path.join(dovecotDir, 'dovecot.conf');
  const dovecotDaemon: RunningDaemon = startForeground(dovecot, ['-F', '-c', dovecotConf]);

  // Postfix
  const postfixDir = path.join(dir, 'postfix');
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
    PORT: String(smtpPort),
    LMTP_PORT: String(lmtpPort),
    MAPTYPE: database.kind === 'sqlite' ? 'sqlite' : 'pgsql',
    CONNECTION: connection,
  };
  // Lines another daemon's kit adds to main.cf (OpenDKIM's milter, a transport to a test sink).
  const extra = options.postfixMainCf ? `\n${options.postfixMainCf}` : '';
  writeFileSync(path.join(postfixDir, 'main.cf'), fillDeployTemplate('postfix-mail/main.cf.template', values) + extra);
  writeFileSync(path.join(postfixDir, 'master.cf'), fillDeployTemplate('postfix-mail/master.cf.template', values));
  for (const map of ['domains', 'mailboxes', 'aliases']) {
    writeFileSync(path.join(postfixDir, `${map}.cf`), fillDeployTemplate(`postfix-mail/${map}.cf.template`, values), {
      mode: 0o644,
    });
  }
  await execFileAsync(postfix, ['-c', postfixDir, 'check']);
  const postfixDaemon = startForeground(postfix, ['-c', postfixDir, 'start-fg']);

  try {
    await waitForPort(imapPort);
    await waitForPort(lmtpPort);
    await waitForPort(smtpPort);
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
    smtpPort,
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
