import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Placement, type RunningDaemon, temporaryPlacement, waitForPort } from './daemon-harness.ts';
import { DEPLOY, fillDeployTemplate } from './deploy-template.ts';
import { nginxBinary, phpFpmBinary, readOr, startNginx, startPhpFpm, waitForSocket, webIdentity } from './nginx-php.ts';
import { writeNginxAround } from './nginx-site.ts';

const SHARE = '/usr/share/roundcube';

export interface RoundcubeOptions {
  imapPort: number;
  redeemUrl: string;
  webmailKey: string;
  masterUser: string;
  masterPassword: string;
}

export interface Roundcube {
  url: string;
  /** Roundcube's own log folder (errors, userlogins). */
  logDir: string;
  /** Roundcube's SQLite database (its users table names who logged in). */
  database: string;
  /** The processes it started, by name (for a status). */
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

/**
 * Debian's Roundcube (roundcube-core, roundcube-sqlite3) with deploy/webmail's plugin, served as
 * production serves it: deploy/webmail's nginx site and PHP-FPM pool, its config.inc.php and the
 * plugin's panel247_signon.inc.php, all rendered from the templates, on loopback. Nothing under
 * /etc or /var/lib is touched: the install is a folder of links to Debian's code (Debian's own
 * layout, /var/lib/roundcube) with its own plugins, config, SQLite database, logs and temp folder.
 */
export async function startRoundcube(
  options: RoundcubeOptions,
  placement: Placement = temporaryPlacement,
): Promise<Roundcube> {
  nginxBinary();
  phpFpmBinary();
  if (!existsSync(path.join(SHARE, 'index.php')))
    throw new Error(
      "Roundcube is missing: install Debian's roundcube-core and roundcube-sqlite3 (scripts/install-system-deps.sh)",
    );
  const web = webIdentity();
  const dir = await placement.folder('roundcube');
  chmodSync(dir, 0o755);
  const root = path.join(dir, 'roundcube');
  const config = path.join(dir, 'config');
  // the install (links, plugin, config) is made anew at each start; the database and logs stay
  for (const made of [root, config]) rmSync(made, { recursive: true, force: true });
  for (const folder of [root, config, path.join(root, 'plugins')]) mkdirSync(folder, { recursive: true });
  /** A folder the pool's user writes (and nobody else reads: sessions hold logged-in mailboxes). */
  const poolFolder = (name: string) => {
    const folder = path.join(dir, name);
    mkdirSync(folder, { recursive: true });
    if (web.asRoot) chownSync(folder, web.uid, web.gid);
    chmodSync(folder, 0o700);
    return folder;
  };
  const [logDir, tempDir, sessionDir, databaseDir] = ['logs', 'temp', 'sessions', 'db'].map(poolFolder) as [
    string,
    string,
    string,
    string,
  ];
  // Debian's layout (/var/lib/roundcube), with this folder's own plugins and config.
  symlinkSync(path.join(SHARE, 'index.php'), path.join(root, 'index.php'));
  symlinkSync(path.join(SHARE, 'program'), path.join(root, 'program'));
  symlinkSync(path.join(SHARE, 'SQL'), path.join(root, 'SQL'));
  symlinkSync('/var/lib/roundcube/skins', path.join(root, 'skins'));
  const publicHtml = path.join(root, 'public_html');
  mkdirSync(publicHtml);
  // a copy, not a link: Roundcube finds its install from this file's own folder
  cpSync('/var/lib/roundcube/public_html/index.php', path.join(publicHtml, 'index.php'));
  symlinkSync('/var/lib/roundcube/public_html/program', path.join(publicHtml, 'program'));
  symlinkSync('../skins', path.join(publicHtml, 'skins'));
  symlinkSync('../plugins', path.join(publicHtml, 'plugins'));
  symlinkSync('/etc/roundcube/defaults.inc.php', path.join(config, 'defaults.inc.php'));
  symlinkSync('/etc/roundcube/mimetypes.php', path.join(config, 'mimetypes.php'));
  // Roundcube's own required plugins, as Debian ships them, and the panel's as an operator copies it.
  for (const name of ['filesystem_attachments', 'jqueryui'])
    symlinkSync(path.join(SHARE, 'plugins', name), path.join(root, 'plugins', name));
  cpSync(path.join(DEPLOY, 'webmail', 'panel247_signon'), path.join(root, 'plugins', 'panel247_signon'), {
    recursive: true,
  });

  const database = path.join(databaseDir, 'roundcube.sqlite');
  if (!existsSync(database)) {
    const db = new SQLite(database);
    db.exec(readFileSync(path.join(SHARE, 'SQL', 'sqlite.initial.sql'), 'utf8'));
    db.close();
    if (web.asRoot) chownSync(database, web.uid, web.gid);
  }
  /** A config file the pool's user reads and nobody else (it holds keys and the master password). */
  const writeConfig = (name: string, template: string, values: Record<string, string>) => {
    const file = path.join(config, name);
    writeFileSync(file, fillDeployTemplate(`webmail/${template}`, values), { mode: 0o640 });
    if (web.asRoot) chownSync(file, 0, web.gid);
  };
  writeConfig('config.inc.php', 'config.inc.php.template', {
    DB_DSN: `sqlite:///${database}?mode=0600`,
    IMAP_HOST: `127.0.0.1:${options.imapPort}`,
    SMTP_HOST: '',
    SMTP_VERIFY_PEER: 'true',
    DES_KEY: randomBytes(12).toString('hex'),
    LOG_DIR: logDir,
    TEMP_DIR: tempDir,
    LOGIN_RATE_LIMIT: '0',
  });
  writeConfig('panel247_signon.inc.php', 'panel247_signon.inc.php.template', {
    REDEEM_URL: options.redeemUrl,
    WEBMAIL_KEY: options.webmailKey,
    MASTER_USER: options.masterUser,
    MASTER_PASSWORD: options.masterPassword,
  });

  // PHP-FPM: a [global] section of this run's own, then the kit's pool.
  const socket = path.join(dir, 'php-fpm.sock');
  rmSync(socket, { force: true });
  const errorLog = path.join(logDir, 'php-errors.log');
  const fpmConfig = path.join(dir, 'php-fpm.conf');
  writeFileSync(
    fpmConfig,
    [
      '[global]',
      `pid = ${path.join(dir, 'php-fpm.pid')}`,
      `error_log = ${path.join(dir, 'php-fpm.log')}`,
      'daemonize = no',
      '',
      fillDeployTemplate('webmail/php-fpm-pool.conf.template', {
        USER: web.user || 'nobody',
        GROUP: web.group || 'nogroup',
        SOCKET: socket,
        LISTEN_OWNER: web.user || 'nobody',
        LISTEN_GROUP: web.group || 'nogroup',
        CONFIG_DIR: config,
        SESSION_DIR: sessionDir,
        TEMP_DIR: tempDir,
        ERROR_LOG: errorLog,
      }),
    ].join('\n'),
    { mode: 0o600 },
  );

  // nginx: an http {} of this run's own around the kit's server block.
  const port = await placement.port('roundcube.http');
  const site = path.join(dir, 'site.conf');
  writeFileSync(
    site,
    fillDeployTemplate('webmail/nginx-site.conf.template', {
      LISTEN: `127.0.0.1:${port}`,
      SERVER_NAME: '127.0.0.1 localhost',
      ROUNDCUBE_ROOT: publicHtml,
      FPM_SOCKET: socket,
      FASTCGI_PARAMS: path.join(DEPLOY, 'nginx', 'fastcgi-params.conf'),
    }),
  );
  const nginx = writeNginxAround(dir, site, web);

  const fpm: RunningDaemon = startPhpFpm(fpmConfig);
  const server: RunningDaemon = startNginx(dir, nginx.config, nginx.errorLog);
  const stop = async () => {
    await server.stop();
    await fpm.stop();
  };
  try {
    await waitForPort(port);
    await waitForSocket(socket, fpm);
  } catch (error) {
    await stop();
    const logs = [fpm.output(), server.output(), readOr(path.join(dir, 'php-fpm.log')), readOr(nginx.errorLog)];
    throw new Error(`roundcube did not start: ${(error as Error).message}\n${logs.join('\n')}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    logDir,
    database,
    processes: () => ({ roundcube: server.process.pid, 'roundcube-php-fpm': fpm.process.pid }),
    stop,
  };
}
