import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fillDeployTemplate } from '../daemons/deploy-template.ts';
import { DEPLOY, type InstallContext, PHP_VERSION, PROXIED_FASTCGI_PARAMS, type Step } from './context.ts';
import type { Secrets } from './env-file.ts';
import type { InstallOptions } from './options.ts';
import { ensurePoolUser, type RenderedFile, writeRenderedFiles } from './system.ts';

/**
 * Roundcube, the WebMail, with the panel's sign-on plugin (deploy/webmail), under /webmail/ of the
 * panel's own TLS host (the panel's default PANEL_WEBMAIL_URL): the panel's proxy passes that path,
 * without its prefix, to a loopback-only nginx site, which hands PHP to a pool of Roundcube's own
 * user (its sessions hold mailbox logins, its config Dovecot's master password: no other pool may
 * read them). Debian's roundcube-core gives the code in /var/lib/roundcube; its database is the
 * roundcube role's on PostgreSQL (the roundcube database step).
 */
export const ROUNDCUBE_USER = 'panel247-roundcube';
const HOME = '/var/lib/panel247-roundcube';
const SESSION_DIR = `${HOME}/sessions`;
const TEMP_DIR = `${HOME}/tmp`;
const LOG_DIR = '/var/log/panel247-roundcube';
const SOCKET = '/run/php/panel247-roundcube.sock';
/** The loopback site the panel's proxy passes /webmail/ to. */
export const ROUNDCUBE_SITE_ADDRESS = '127.0.0.1:8249';
/** Outside PANEL_WEB_CONFIG_DIR/live (the panel's), included by php-fpm.conf after the panel's pools. */
export const ROUNDCUBE_POOL = `/etc/php/${PHP_VERSION}/fpm/panel247-roundcube.conf`;
/** Debian's code folder: its plugins/ holds links to /usr/share/roundcube's, and the panel's copy. */
const ROUNDCUBE_ROOT = '/var/lib/roundcube';
/** The folder Roundcube reads config.inc.php and <plugin>.inc.php from (the pool's ROUNDCUBE_CONFIG_DIR). */
const CONFIG_DIR = '/etc/roundcube';

/** The proxy's location for the WebMail; the prefix is taken off, Roundcube's own links are relative. */
export const WEBMAIL_PROXY_LOCATION = `    # The WebMail (Roundcube), served by the loopback site of deploy/webmail (deploy/install.sh).
    location /webmail/ {
        proxy_pass http://${ROUNDCUBE_SITE_ADDRESS}/;
        # attachments: as the pool's post_max_size
        client_max_body_size 26m;
    }
`;

/** The files of Roundcube's part, with the unit each one's change restarts. */
export function roundcubeFiles(options: InstallOptions, secrets: Secrets, ids: { gid: number }): RenderedFile[] {
  const php = `php${PHP_VERSION}-fpm.service`;
  const plugin = (name: string) => ({
    path: `${ROUNDCUBE_ROOT}/plugins/panel247_signon/${name}`,
    text: readFileSync(path.join(DEPLOY, 'webmail/panel247_signon', name), 'utf8'),
    mode: 0o644,
    unit: php,
  });
  return [
    plugin('panel247_signon.php'),
    plugin('redeem.php'),
    {
      path: `${CONFIG_DIR}/config.inc.php`,
      text: fillDeployTemplate('webmail/config.inc.php.template', {
        DB_DSN: `pgsql://roundcube:${secrets.ROUNDCUBE_DB_PASSWORD}@127.0.0.1/roundcube`,
        IMAP_HOST: '127.0.0.1:143',
        // Postfix's submission on this machine: its certificate names the mail host, not loopback
        SMTP_HOST: 'tls://127.0.0.1:587',
        SMTP_VERIFY_PEER: 'false',
        DES_KEY: secrets.ROUNDCUBE_DES_KEY,
        LOG_DIR,
        TEMP_DIR,
        LOGIN_RATE_LIMIT: '3',
      }),
      // the database password and the DES key: the pool's user reads them, nobody else
      mode: 0o640,
      gid: ids.gid,
      unit: php,
    },
    {
      path: `${CONFIG_DIR}/panel247_signon.inc.php`,
      text: fillDeployTemplate('webmail/panel247_signon.inc.php.template', {
        REDEEM_URL: 'http://127.0.0.1:8247/p247/webmail/redeem/',
        WEBMAIL_KEY: secrets.WEBMAIL_KEY,
        MASTER_USER: 'webmail',
        MASTER_PASSWORD: secrets.WEBMAIL_MASTER_PASSWORD,
      }),
      mode: 0o640,
      gid: ids.gid,
      unit: php,
    },
    {
      path: ROUNDCUBE_POOL,
      text: fillDeployTemplate('webmail/php-fpm-pool.conf.template', {
        USER: ROUNDCUBE_USER,
        GROUP: ROUNDCUBE_USER,
        SOCKET,
        LISTEN_OWNER: 'www-data',
        LISTEN_GROUP: 'www-data',
        CONFIG_DIR,
        SESSION_DIR,
        TEMP_DIR,
        ERROR_LOG: `${LOG_DIR}/php-errors.log`,
      }),
      mode: 0o644,
      unit: php,
    },
    {
      path: '/etc/nginx/panel247/webmail.conf',
      text: fillDeployTemplate('webmail/nginx-site.conf.template', {
        LISTEN: ROUNDCUBE_SITE_ADDRESS,
        SERVER_NAME: options.panelHost,
        ROUNDCUBE_ROOT: `${ROUNDCUBE_ROOT}/public_html`,
        FPM_SOCKET: SOCKET,
        FASTCGI_PARAMS: PROXIED_FASTCGI_PARAMS,
      }),
      mode: 0o644,
      unit: 'nginx.service',
    },
  ];
}

export const roundcubeStep: Step = {
  title: 'Roundcube with the panel’s sign-on (/webmail/ of the panel’s host)',
  async run({ options, secrets, say, changedUnits }: InstallContext) {
    const { gid } = await ensurePoolUser(ROUNDCUBE_USER, HOME, [SESSION_DIR, TEMP_DIR, LOG_DIR], say);
    writeRenderedFiles(roundcubeFiles(options, secrets, { gid }), changedUnits, say);
  },
};
