import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type Placement,
  type RunningDaemon,
  requireBinary,
  startForeground,
  temporaryPlacement,
  waitForPort,
} from './daemon-harness.ts';

const DEPLOY = path.join(import.meta.dirname, '../../deploy');
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

/** A PHP string literal (single-quoted) for the generated config files. */
const php = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/**
 * Debian's Roundcube (roundcube-core, roundcube-sqlite3) with deploy/webmail's plugin, served by
 * PHP's built-in web server on loopback. Nothing under /etc or /var/lib is touched: the install
 * is a folder of links to Debian's code plus a config, a SQLite database, logs and a plugins
 * folder of its own (ROUNDCUBE_CONFIG_DIR points Debian's Roundcube at the config).
 */
export async function startRoundcube(
  options: RoundcubeOptions,
  placement: Placement = temporaryPlacement,
): Promise<Roundcube> {
  const phpBinary = requireBinary('php', 'php8.2-cli');
  if (!existsSync(path.join(SHARE, 'index.php')))
    throw new Error(
      "Roundcube is missing: install Debian's roundcube-core and roundcube-sqlite3 (scripts/install-system-deps.sh)",
    );
  const dir = await placement.folder('roundcube');
  const root = path.join(dir, 'roundcube');
  const config = path.join(dir, 'config');
  // the install (links, plugin, config) is made anew at each start; the database and logs stay
  for (const made of [root, config]) rmSync(made, { recursive: true, force: true });
  const logDir = path.join(dir, 'logs');
  for (const folder of [root, config, logDir, path.join(dir, 'temp'), path.join(root, 'plugins')])
    mkdirSync(folder, { recursive: true });
  // Debian's layout (/var/lib/roundcube), with this folder's own plugins, config, logs and temp.
  symlinkSync(path.join(SHARE, 'index.php'), path.join(root, 'index.php'));
  symlinkSync(path.join(SHARE, 'program'), path.join(root, 'program'));
  symlinkSync(path.join(SHARE, 'SQL'), path.join(root, 'SQL'));
  symlinkSync('/var/lib/roundcube/skins', path.join(root, 'skins'));
  mkdirSync(path.join(root, 'public_html'));
  cpSync('/var/lib/roundcube/public_html/index.php', path.join(root, 'public_html', 'index.php'));
  symlinkSync('/var/lib/roundcube/public_html/program', path.join(root, 'public_html', 'program'));
  symlinkSync('../skins', path.join(root, 'public_html', 'skins'));
  symlinkSync('../plugins', path.join(root, 'public_html', 'plugins'));
  symlinkSync('/etc/roundcube/defaults.inc.php', path.join(config, 'defaults.inc.php'));
  symlinkSync('/etc/roundcube/mimetypes.php', path.join(config, 'mimetypes.php'));

  // Roundcube's own required plugins, as Debian ships them.
  for (const name of ['filesystem_attachments', 'jqueryui'])
    symlinkSync(path.join(SHARE, 'plugins', name), path.join(root, 'plugins', name));
  // The plugin as an operator installs it: the shipped files, plus its config.inc.php.
  const plugin = path.join(root, 'plugins', 'panel247_signon');
  cpSync(path.join(DEPLOY, 'webmail', 'panel247_signon'), plugin, { recursive: true });
  const dist = readFileSync(path.join(plugin, 'config.inc.php.dist'), 'utf8');
  writeFileSync(
    path.join(plugin, 'config.inc.php'),
    dist
      .replace(/(\$config\['panel247_redeem_url'\] = ).*;/, `$1${php(options.redeemUrl)};`)
      .replace(/(\$config\['panel247_webmail_key'\] = ).*;/, `$1${php(options.webmailKey)};`)
      .replace(/(\$config\['panel247_master_user'\] = ).*;/, `$1${php(options.masterUser)};`)
      .replace(/(\$config\['panel247_master_password'\] = ).*;/, `$1${php(options.masterPassword)};`),
  );

  const database = path.join(dir, 'roundcube.sqlite');
  if (!existsSync(database)) {
    const db = new SQLite(database);
    db.exec(readFileSync(path.join(SHARE, 'SQL', 'sqlite.initial.sql'), 'utf8'));
    db.close();
  }
  writeFileSync(
    path.join(config, 'config.inc.php'),
    `<?php
$config = [];
$config['db_dsnw'] = ${php(`sqlite:///${database}?mode=0600`)};
$config['imap_host'] = ${php(`127.0.0.1:${options.imapPort}`)};
$config['smtp_host'] = '';
$config['des_key'] = ${php('panel247-test-des-key-24')};
$config['plugins'] = ['panel247_signon'];
$config['log_driver'] = 'file';
$config['log_dir'] = ${php(`${logDir}/`)};
$config['temp_dir'] = ${php(`${path.join(dir, 'temp')}/`)};
$config['log_logins'] = true;
$config['login_rate_limit'] = 0;
$config['enable_spellcheck'] = false;
$config['skin'] = 'elastic';
`,
  );

  const port = await placement.port('roundcube.http');
  const daemon: RunningDaemon = startForeground(
    phpBinary,
    ['-S', `127.0.0.1:${port}`, '-t', path.join(root, 'public_html')],
    { cwd: path.join(root, 'public_html'), env: { ...process.env, ROUNDCUBE_CONFIG_DIR: config } },
  );
  try {
    await waitForPort(port);
  } catch (error) {
    await daemon.stop();
    throw new Error(`roundcube did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    logDir,
    database,
    processes: () => ({ roundcube: daemon.process.pid }),
    stop: () => daemon.stop(),
  };
}
