import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fillDeployTemplate } from '../daemons/deploy-template.ts';
import { DEPLOY, type InstallContext, PHP_VERSION, PROXIED_FASTCGI_PARAMS, type Step } from './context.ts';
import type { Secrets } from './env-file.ts';
import { MARIADB_ADDRESS, MARIADB_PORT } from './mariadb.ts';
import type { InstallOptions } from './options.ts';
import { ensurePoolUser, type RenderedFile, writeRenderedFiles } from './system.ts';

/**
 * phpMyAdmin with the panel's sign-on (deploy/phpmyadmin), under /phpmyadmin/ of the panel's own
 * TLS host: the panel's proxy passes that path to a loopback-only nginx site, which hands PHP to a
 * pool of phpMyAdmin's own user (its sessions hold database logins: no other pool may read them).
 */
export const PHPMYADMIN_USER = 'panel247-phpmyadmin';
const HOME = '/var/lib/panel247-phpmyadmin';
const SESSION_DIR = `${HOME}/sessions`;
const TEMP_DIR = `${HOME}/tmp`;
const SOCKET = '/run/php/panel247-phpmyadmin.sock';
/** The loopback site the panel's proxy passes /phpmyadmin/ to. */
export const PHPMYADMIN_SITE_ADDRESS = '127.0.0.1:8248';
/** Outside PANEL_WEB_CONFIG_DIR/live (the panel's), included by php-fpm.conf after the panel's pools. */
export const PHPMYADMIN_POOL = `/etc/php/${PHP_VERSION}/fpm/panel247-phpmyadmin.conf`;
const SIGNON_SCRIPT = '/usr/local/share/panel247/panel247-signon.php';

/**
 * The panel proxy's location for phpMyAdmin, put before its web app's catch-all. The loopback site
 * is reached only through here, over TLS: it tells PHP so (HTTPS on), for the secure cookies.
 */
export const PHPMYADMIN_PROXY_LOCATION = `    # phpMyAdmin and its sign-on, served by the loopback site of deploy/phpmyadmin (deploy/install.sh).
    location /phpmyadmin/ {
        proxy_pass http://${PHPMYADMIN_SITE_ADDRESS};
        client_max_body_size 64m;
        proxy_buffering off;
    }
`;

/** The files of phpMyAdmin's part, with the unit each one's change restarts. */
export function phpMyAdminFiles(options: InstallOptions, secrets: Secrets, ids: { gid: number }): RenderedFile[] {
  const php = `php${PHP_VERSION}-fpm.service`;
  const panelUrl = `https://${options.panelHost}/`;
  return [
    {
      path: '/etc/phpmyadmin/config.inc.php',
      text: fillDeployTemplate('phpmyadmin/config.inc.php.template', {
        BLOWFISH_SECRET_HEX: secrets.PHPMYADMIN_BLOWFISH_HEX,
        SIGNON_URL: panelUrl,
        LOGOUT_URL: panelUrl,
        DB_HOST: MARIADB_ADDRESS,
        DB_PORT: MARIADB_PORT,
        COOKIE_SECURE: 'true',
        TEMP_DIR,
      }),
      // the blowfish secret: the pool's user reads it, nobody else
      mode: 0o640,
      gid: ids.gid,
      unit: php,
    },
    {
      path: SIGNON_SCRIPT,
      text: readFileSync(path.join(DEPLOY, 'phpmyadmin/panel247-signon.php'), 'utf8'),
      mode: 0o644,
      unit: php,
    },
    {
      path: PHPMYADMIN_POOL,
      text: fillDeployTemplate('phpmyadmin/php-fpm-pool.conf.template', {
        USER: PHPMYADMIN_USER,
        GROUP: PHPMYADMIN_USER,
        SOCKET,
        LISTEN_OWNER: 'www-data',
        LISTEN_GROUP: 'www-data',
        SESSION_DIR,
        TEMP_DIR,
        REDEEM_URL: 'http://127.0.0.1:8247/p247/phpmyadmin/redeem/',
        KEY: secrets.PHPMYADMIN_KEY,
        ERROR_LOG: `/var/log/php${PHP_VERSION}-fpm-phpmyadmin.log`,
      }),
      // the shared key: the master (root) reads it
      mode: 0o600,
      unit: php,
    },
    {
      path: '/etc/nginx/panel247/phpmyadmin.conf',
      text: fillDeployTemplate('phpmyadmin/nginx-site.conf.template', {
        LISTEN: PHPMYADMIN_SITE_ADDRESS,
        SERVER_NAME: options.panelHost,
        PHPMYADMIN_ROOT: '/usr/share/phpmyadmin',
        SIGNON_SCRIPT,
        FPM_SOCKET: SOCKET,
        FASTCGI_PARAMS: PROXIED_FASTCGI_PARAMS,
      }),
      mode: 0o644,
      unit: 'nginx.service',
    },
  ];
}

export const phpMyAdminStep: Step = {
  title: 'phpMyAdmin with the panel’s sign-on (/phpmyadmin/ of the panel’s host)',
  async run({ options, secrets, say, changedUnits }: InstallContext) {
    const { gid } = await ensurePoolUser(PHPMYADMIN_USER, HOME, [SESSION_DIR, TEMP_DIR], say);
    writeRenderedFiles(phpMyAdminFiles(options, secrets, { gid }), changedUnits, say);
  },
};
