import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { type Placement, type RunningDaemon, temporaryPlacement, waitForPort } from './daemon-harness.ts';
import { fillDeployTemplate } from './deploy-template.ts';
import { nginxBinary, phpFpmBinary, readOr, startNginx, startPhpFpm, waitForSocket, webIdentity } from './nginx-php.ts';
import { writeNginxAround } from './nginx-site.ts';

const KIT = path.join(import.meta.dirname, '../../deploy/phpmyadmin');
const DEBIAN_PHPMYADMIN = '/usr/share/phpmyadmin';

export interface PhpMyAdminOptions {
  /** The panel's {base}/phpmyadmin/redeem/ as the hand-off script reaches it. */
  redeemUrl: string;
  key: string;
  /** MariaDB as phpMyAdmin reaches it (the redeemed login may name another). */
  dbHost: string;
  dbPort: number;
  /** Where phpMyAdmin sends a visitor without a sign-on, and after logout. */
  signonUrl: string;
}

export interface PhpMyAdmin {
  /** e.g. http://127.0.0.1:PORT — phpMyAdmin lives under /phpmyadmin/. */
  baseUrl: string;
  signonUrl: string;
  logs(): string;
  /** The processes it started, by name (for a status). */
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

function fill(template: string, values: Record<string, string>): string {
  return fillDeployTemplate(`phpmyadmin/${template}`, values);
}

/**
 * Debian's phpMyAdmin reads /etc/phpmyadmin/config.inc.php, named in its vendor_config.php. To
 * start it from deploy/phpmyadmin without touching /etc, the harness gives it a root of its own:
 * symbolic links to Debian's files, except a vendor_config.php naming this run's config and temp
 * folder. phpMyAdmin takes ROOT_PATH from a constant when one is defined, which the pool's
 * auto_prepend_file does for this run only.
 */
function phpMyAdminRoot(dir: string, configFile: string, tempDir: string): string {
  const root = path.join(dir, 'phpmyadmin-root');
  // links of a kept folder's last run are made again: Debian's files may have moved since
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, 'libraries'), { recursive: true });
  for (const entry of readdirSync(DEBIAN_PHPMYADMIN)) {
    if (entry !== 'libraries') symlinkSync(path.join(DEBIAN_PHPMYADMIN, entry), path.join(root, entry));
  }
  for (const entry of readdirSync(path.join(DEBIAN_PHPMYADMIN, 'libraries'))) {
    if (entry !== 'vendor_config.php') {
      symlinkSync(path.join(DEBIAN_PHPMYADMIN, 'libraries', entry), path.join(root, 'libraries', entry));
    }
  }
  const vendor = readFileSync(path.join(DEBIAN_PHPMYADMIN, 'libraries/vendor_config.php'), 'utf8')
    .replace(/'configFile' => [^,]+,/, `'configFile' => ${JSON.stringify(configFile)},`)
    .replace(/'tempDir' => [^,]+,/, `'tempDir' => ${JSON.stringify(`${tempDir}/`)},`);
  if (!vendor.includes(configFile)) throw new Error('vendor_config.php has an unknown layout');
  writeFileSync(path.join(root, 'libraries/vendor_config.php'), vendor);
  return root;
}

/**
 * Debian's nginx, PHP-FPM 8.2 and phpMyAdmin from the deploy/phpmyadmin kit, on loopback in a
 * folder of their own: phpMyAdmin under /phpmyadmin/ with the Panel247 sign-on hand-off.
 */
export async function startPhpMyAdmin(
  options: PhpMyAdminOptions,
  placement: Placement = temporaryPlacement,
): Promise<PhpMyAdmin> {
  nginxBinary();
  phpFpmBinary();
  if (!existsSync(path.join(DEBIAN_PHPMYADMIN, 'index.php'))) {
    throw new Error(`${DEBIAN_PHPMYADMIN} is missing: install Debian's phpmyadmin (scripts/install-system-deps.sh)`);
  }
  const web = webIdentity();
  const asRoot = web.asRoot;
  const dir = await placement.folder('phpmyadmin');
  chmodSync(dir, 0o755);
  const privateDir = (name: string) => {
    const folder = path.join(dir, name);
    mkdirSync(folder, { recursive: true });
    if (asRoot) chownSync(folder, web.uid, web.gid);
    chmodSync(folder, 0o700);
    return folder;
  };
  const sessions = privateDir('sessions');
  const temp = privateDir('tmp');
  const port = await placement.port('phpmyadmin.http');
  const socket = path.join(dir, 'php-fpm.sock');
  rmSync(socket, { force: true });
  const configFile = path.join(dir, 'config.inc.php');
  const errorLog = path.join(dir, 'php-errors.log');

  writeFileSync(
    configFile,
    fill('config.inc.php.template', {
      BLOWFISH_SECRET_HEX: randomBytes(32).toString('hex'),
      SIGNON_URL: options.signonUrl,
      LOGOUT_URL: options.signonUrl,
      DB_HOST: options.dbHost,
      DB_PORT: String(options.dbPort),
      COOKIE_SECURE: 'false',
      TEMP_DIR: temp,
    }),
  );
  chmodSync(configFile, 0o644);
  const root = phpMyAdminRoot(dir, configFile, temp);
  const signonScript = path.join(dir, 'panel247-signon.php');
  writeFileSync(signonScript, readFileSync(path.join(KIT, 'panel247-signon.php')));
  chmodSync(signonScript, 0o644);
  const prepend = path.join(dir, 'prepend.php');
  writeFileSync(prepend, `<?php\nif (!defined('ROOT_PATH')) define('ROOT_PATH', ${JSON.stringify(`${root}/`)});\n`);
  chmodSync(prepend, 0o644);

  // PHP-FPM: a [global] section of this run's own, then the kit's pool.
  const pool = fill('php-fpm-pool.conf.template', {
    USER: web.user || 'nobody',
    GROUP: web.group || 'nogroup',
    SOCKET: socket,
    LISTEN_OWNER: web.user || 'nobody',
    LISTEN_GROUP: web.group || 'nogroup',
    SESSION_DIR: sessions,
    TEMP_DIR: temp,
    REDEEM_URL: options.redeemUrl,
    KEY: options.key,
    ERROR_LOG: errorLog,
  });
  const fpmConfig = path.join(dir, 'php-fpm.conf');
  writeFileSync(
    fpmConfig,
    [
      '[global]',
      `pid = ${path.join(dir, 'php-fpm.pid')}`,
      `error_log = ${path.join(dir, 'php-fpm.log')}`,
      'daemonize = no',
      '',
      pool,
      // this run's phpMyAdmin root (see phpMyAdminRoot); not part of a real deployment
      `php_admin_value[auto_prepend_file] = ${prepend}`,
      '',
    ].join('\n'),
  );
  chmodSync(fpmConfig, 0o600);
  // PHP's workers write their log as the pool's user.
  writeFileSync(errorLog, '');
  if (asRoot) chownSync(errorLog, web.uid, web.gid);

  // nginx: an http {} of this run's own around the kit's server block.
  writeFileSync(
    path.join(dir, 'site.conf'),
    fill('nginx-site.conf.template', {
      LISTEN: `127.0.0.1:${port}`,
      SERVER_NAME: '127.0.0.1 localhost',
      PHPMYADMIN_ROOT: root,
      SIGNON_SCRIPT: signonScript,
      FPM_SOCKET: socket,
      FASTCGI_PARAMS: path.join(KIT, 'fastcgi-params.conf'),
    }),
  );
  const { config: nginxConfig, errorLog: nginxErrorLog } = writeNginxAround(dir, path.join(dir, 'site.conf'), web);

  const fpm: RunningDaemon = startPhpFpm(fpmConfig);
  const server: RunningDaemon = startNginx(dir, nginxConfig, nginxErrorLog);
  const logs = () =>
    [
      fpm.output(),
      server.output(),
      readOr(path.join(dir, 'php-fpm.log')),
      readOr(errorLog),
      readOr(nginxErrorLog),
    ].join('\n');
  const stop = async () => {
    await server.stop();
    await fpm.stop();
    // sessions there hold sign-on logins: nothing of a test's run stays behind
    if (placement.temporary) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port);
    await waitForSocket(socket, fpm);
  } catch (error) {
    await stop();
    throw new Error(`phpMyAdmin did not start: ${(error as Error).message}\n${logs()}`);
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    signonUrl: `http://127.0.0.1:${port}/phpmyadmin/panel247-signon.php`,
    logs,
    processes: () => ({ phpmyadmin: server.process.pid, 'phpmyadmin-php-fpm': fpm.process.pid }),
    stop,
  };
}
