import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { listenAddresses, repeatListenLines } from '../../apps/server/src/drivers/web/listen-lines.ts';
import { fillDeployTemplate, POSTFIX_MAPS } from '../daemons/deploy-template.ts';
import { ensureSftpHostKeys } from '../daemons/sftp-host-keys.ts';
import { ensureSelfSigned } from './certificates.ts';
import {
  DEPLOY,
  type InstallContext,
  PHP_VERSION,
  PROXIED_FASTCGI_PARAMS,
  RSPAMD_SCANNER,
  type Step,
} from './context.ts';
import type { Secrets } from './env-file.ts';
import type { InstallOptions } from './options.ts';
import { PHPMYADMIN_POOL, PHPMYADMIN_PROXY_LOCATION } from './phpmyadmin.ts';
import { ROUNDCUBE_POOL, WEBMAIL_PROXY_LOCATION } from './roundcube.ts';
import { httpListen, httpsListen } from './settings.ts';
import { requiredGroupId, run, writeIfChanged } from './system.ts';

/** One configuration file in Debian's place: rendered from deploy/ templates, owned by root. */
export interface ConfigFile {
  path: string;
  /** The text, from one template or several joined (Postfix's main.cf with OpenDKIM's lines). */
  render(): string;
  mode: number;
  /** The group that reads it (the daemon's), root when undefined. */
  group?: string;
  /** The unit restarted when it changes. */
  unit: string;
}

export const MAIL_TLS_DIR = '/etc/panel247/mail-tls';
export const PANEL_TLS_DIR = '/etc/panel247/panel-tls';
/** The folder of the installer's nginx sites (the panel's proxy), included from nginx.conf. */
export const NGINX_SITES_DIR = '/etc/nginx/panel247';
/** Dovecot's sieve_execute_bin_dir: the spam filter's program, and nothing else. */
export const SIEVE_EXECUTE_DIR = '/usr/lib/panel247/sieve-execute';

/** Postfix's and Dovecot's PostgreSQL login: the read-only role on the panel's views. */
function mailConnection(secrets: Secrets): string {
  return `hosts = 127.0.0.1:5432\nuser = panel247_mail\npassword = ${secrets.MAIL_ROLE_PASSWORD}\ndbname = panel247`;
}

/**
 * nginx's main file: the template, plus one include of the installer's own sites (the panel's TLS
 * proxy) beside the services' live folder.
 */
function nginxMain(options: InstallOptions): string {
  const http = listenAddresses(httpListen(options));
  const https = listenAddresses(httpsListen(options));
  const filled = fillDeployTemplate('nginx/nginx.conf.template', {
    USER: 'www-data',
    GROUP: 'www-data',
    PID_FILE: '/run/nginx.pid',
    ERROR_LOG: '/var/log/nginx/error.log',
    ACCESS_LOG: '/var/log/nginx/access.log',
    TEMP_DIR: '/var/lib/nginx',
    MIME_TYPES: '/etc/nginx/mime.types',
    HTTP_LISTEN: http[0] as string,
    HTTPS_LISTEN: https[0] as string,
    LIVE_DIR: '/etc/panel247/web/live',
  });
  const main = repeatListenLines(repeatListenLines(filled, http), https);
  const end = main.lastIndexOf('}');
  return `${main.slice(0, end)}    include ${NGINX_SITES_DIR}/*.conf;\n${main.slice(end)}`;
}

/**
 * The panel's own TLS proxy, with phpMyAdmin's and the WebMail's locations before the web app's
 * catch-all, listening on IPv6 too when the machine has an address there.
 */
function panelProxy(options: InstallOptions): string {
  const http = listenAddresses(httpListen(options));
  const https = listenAddresses(httpsListen(options));
  const filled = fillDeployTemplate('nginx/panel-proxy.conf.template', {
    SERVER_NAME: options.panelHost,
    HTTP_LISTEN: http[0] as string,
    HTTPS_LISTEN: https[0] as string,
    CERTIFICATE: `${PANEL_TLS_DIR}/fullchain.pem`,
    CERTIFICATE_KEY: `${PANEL_TLS_DIR}/key.pem`,
    ACME_ROOT: '/var/www/panel247-acme',
    PANEL_ADDRESS: '127.0.0.1:8247',
  }).replace('    # The web app', `${PHPMYADMIN_PROXY_LOCATION}${WEBMAIL_PROXY_LOCATION}    # The web app`);
  return repeatListenLines(repeatListenLines(filled, http), https);
}

/** PHP-FPM's main file: the template, then the includes of phpMyAdmin's and Roundcube's pools (outside the panel's folder). */
function phpFpmMain(): string {
  const main = fillDeployTemplate('nginx/php-fpm.conf.template', {
    PID_FILE: `/run/php/php${PHP_VERSION}-fpm.pid`,
    ERROR_LOG: `/var/log/php${PHP_VERSION}-fpm.log`,
    // Debian's unit runs the master with --nodaemonize
    DAEMONIZE: 'no',
    IDLE_SOCKET: `/run/php/panel247-${PHP_VERSION}/idle.sock`,
    USER: 'www-data',
    GROUP: 'www-data',
    LIVE_DIR: '/etc/panel247/web/live',
    VERSION: PHP_VERSION,
  });
  return `${main}; phpMyAdmin's and Roundcube's pools (deploy/install.sh)\ninclude=${PHPMYADMIN_POOL}\ninclude=${ROUNDCUBE_POOL}\n`;
}

/** Every file the installer renders, in Debian's places, with the production values of docs/OPERATIONS.md. */
export function configFiles(options: InstallOptions, secrets: Secrets): ConfigFile[] {
  const postfixValues = {
    DIR: '/etc/postfix',
    QUEUE_DIR: '/var/spool/postfix',
    DATA_DIR: '/var/lib/postfix',
    MAILLOG_FILE: '',
    HOSTNAME: options.mailHost,
    INET_INTERFACES: 'all',
    INET_PROTOCOLS: 'all',
    PORT: '25',
    SUBMISSION_PORT: '587',
    SUBMISSIONS_PORT: '465',
    LMTP_PORT: '24',
    MAPTYPE: 'pgsql',
    TLS_DIR: MAIL_TLS_DIR,
    SASL_SOCKET: 'private/auth',
    // the panel's sending limit per mailbox, asked at DATA on submission (PANEL_MAIL_POLICY_LISTEN)
    POLICY_SERVICE: 'unix:private/panel247-policy',
    CONNECTION: mailConnection(secrets),
    OPENDKIM_PORT: '8891',
    // this machine is the unnamed one: its daemons serve the services placed on no named server
    NODE: '',
  };
  const files: ConfigFile[] = [
    {
      path: '/etc/powerdns/pdns.conf',
      render: () =>
        fillDeployTemplate('powerdns/pdns.conf.template', {
          INCLUDE_DIR: '/etc/powerdns/pdns.d',
          LISTEN: '0.0.0.0, ::',
          SOCKET_DIR: '/run/pdns',
          DNS_PORT: '53',
          API_PORT: '8081',
          API_KEY: secrets.POWERDNS_API_KEY,
        }),
      mode: 0o640,
      group: 'pdns',
      unit: 'pdns.service',
    },
    {
      path: '/etc/powerdns/pdns.d/panel247-backend.conf',
      render: () =>
        fillDeployTemplate('powerdns/backend-gpgsql.conf.template', {
          PG_HOST: '127.0.0.1',
          PG_PORT: '5432',
          PG_DBNAME: 'pdns',
          PG_USER: 'pdns',
          PG_PASSWORD: secrets.PDNS_DB_PASSWORD,
        }),
      mode: 0o640,
      group: 'pdns',
      unit: 'pdns.service',
    },
    {
      path: '/etc/dovecot/dovecot.conf',
      render: () =>
        fillDeployTemplate('dovecot/dovecot.conf.template', {
          RUN_DIR: '/run/dovecot',
          STATE_DIR: '/var/lib/dovecot',
          LOG_PATH: 'syslog',
          LISTEN: '*, ::',
          SQL_CONF: '/etc/dovecot/dovecot-sql.conf.ext',
          MASTER_USERS: '/var/lib/dovecot/master-users',
          MAIL_ROOT: '/var/mail/panel247',
          IMAP_PORT: '143',
          IMAPS_PORT: '993',
          LMTP_PORT: '24',
          AUTH_FAILURE_DELAY: '2s',
          AUTH_WORKER_USER: 'dovecot',
          SUBMISSION_HOST: '127.0.0.1:25',
          TLS_DIR: MAIL_TLS_DIR,
          SASL_SOCKET: '/var/spool/postfix/private/auth',
          SIEVE_BIN_DIR: SIEVE_EXECUTE_DIR,
        }),
      mode: 0o644,
      unit: 'dovecot.service',
    },
    {
      path: `${SIEVE_EXECUTE_DIR}/panel247-spam-score`,
      render: () => fillDeployTemplate('dovecot/panel247-spam-score.template', { RSPAMD: RSPAMD_SCANNER }),
      mode: 0o755,
      unit: 'dovecot.service',
    },
    {
      path: '/etc/rspamd/local.d/worker-normal.inc',
      render: () => fillDeployTemplate('rspamd/worker-normal.inc.template', { LISTEN: RSPAMD_SCANNER }),
      mode: 0o644,
      unit: 'rspamd.service',
    },
    {
      path: '/etc/dovecot/dovecot-sql.conf.ext',
      render: () =>
        fillDeployTemplate('dovecot/dovecot-sql.conf.ext.template', {
          DRIVER: 'pgsql',
          CONNECT: `host=127.0.0.1 port=5432 dbname=panel247 user=panel247_mail password=${secrets.MAIL_ROLE_PASSWORD}`,
          MAIL_ROOT: '/var/mail/panel247',
          NODE: '',
        }),
      mode: 0o640,
      group: 'dovecot',
      unit: 'dovecot.service',
    },
    {
      path: '/etc/postfix/main.cf',
      render: () =>
        fillDeployTemplate('postfix-mail/main.cf.template', postfixValues) +
        fillDeployTemplate('opendkim/postfix-milter.cf.template', postfixValues),
      mode: 0o644,
      unit: 'postfix.service',
    },
    {
      path: '/etc/postfix/master.cf',
      render: () => fillDeployTemplate('postfix-mail/master.cf.template', postfixValues),
      mode: 0o644,
      unit: 'postfix.service',
    },
    ...POSTFIX_MAPS.map((map) => ({
      path: `/etc/postfix/${map}.cf`,
      render: () => fillDeployTemplate(`postfix-mail/${map}.cf.template`, postfixValues),
      mode: 0o640,
      group: 'postfix',
      unit: 'postfix.service',
    })),
    {
      path: '/etc/opendkim.conf',
      render: () =>
        fillDeployTemplate('opendkim/opendkim.conf.template', {
          DIR: '/run/opendkim',
          PORT: '8891',
          TABLES: '/etc/opendkim/panel',
          USER: 'opendkim',
          SYSLOG: 'yes',
          REQUIRE_SAFE_KEYS: 'yes',
        }),
      mode: 0o644,
      unit: 'opendkim.service',
    },
    {
      path: '/etc/proftpd/proftpd.conf',
      render: () =>
        fillDeployTemplate('proftpd/proftpd.conf.template', {
          DIR: '/var/log/proftpd',
          // customers connect from outside: every address, IPv6 too (doctor asks at 127.0.0.1)
          ADDRESS: '127.0.0.1',
          BIND_TIGHT: 'off',
          PORT: '21',
          // the panel's default PANEL_SFTP_PORT: OpenSSH keeps 22 for the provider's staff
          SFTP_PORT: '2222',
          HOST_KEY_DIR: '/etc/proftpd',
          PASV_MIN: '49152',
          PASV_MAX: '49200',
          SQL_MODULE: 'mod_sql_postgres.c',
          SQL_BACKEND: 'postgres',
          CONNECT: `panel247@127.0.0.1:5432 panel247_ftp ${secrets.FTP_ROLE_PASSWORD}`,
          NODE: '',
        }),
      mode: 0o640,
      unit: 'proftpd.service',
    },
    {
      path: `/etc/php/${PHP_VERSION}/fpm/php-fpm.conf`,
      render: phpFpmMain,
      mode: 0o644,
      unit: `php${PHP_VERSION}-fpm.service`,
    },
    { path: '/etc/nginx/nginx.conf', render: () => nginxMain(options), mode: 0o644, unit: 'nginx.service' },
    {
      path: `${NGINX_SITES_DIR}/panel-proxy.conf`,
      render: () => panelProxy(options),
      mode: 0o644,
      unit: 'nginx.service',
    },
    {
      path: PROXIED_FASTCGI_PARAMS,
      render: () =>
        readFileSync(path.join(DEPLOY, 'nginx/fastcgi-params.conf'), 'utf8').replace(
          'fastcgi_param HTTPS $https if_not_empty;',
          '# reached only through the panel’s TLS proxy\nfastcgi_param HTTPS on;',
        ),
      mode: 0o644,
      unit: 'nginx.service',
    },
    {
      // Debian's unit waits for /run/proftpd.pid; the template keeps its pid file in its own folder
      path: '/etc/systemd/system/proftpd.service.d/panel247.conf',
      render: () =>
        '# Written by deploy/install.sh: the pid file of deploy/proftpd/proftpd.conf.template (DIR=/var/log/proftpd).\n[Service]\nPIDFile=/var/log/proftpd/proftpd.pid\n',
      mode: 0o644,
      unit: 'proftpd.service',
    },
  ];
  return files;
}

/**
 * The WebMail's Dovecot master user, `webmail:{SHA512-CRYPT}…`: hashed by openssl with the
 * password on standard input, and kept when the file already holds a hash of the same password
 * (a fresh salt on every run would make every re-run a change).
 */
async function masterUsersLine(password: string): Promise<string> {
  const file = '/var/lib/dovecot/master-users';
  const current = existsSync(file)
    ? readFileSync(file, 'utf8').match(/^webmail:\{SHA512-CRYPT\}(\$6\$([^$]+)\$\S+)$/m)
    : null;
  if (current) {
    const again = await run('openssl', ['passwd', '-6', '-salt', current[2] as string, '-stdin'], { input: password });
    if (again.stdout.trim() === current[1]) return `webmail:{SHA512-CRYPT}${current[1]}\n`;
  }
  const hash = await run('openssl', ['passwd', '-6', '-stdin'], { input: password });
  return `webmail:{SHA512-CRYPT}${hash.stdout.trim()}\n`;
}

export const daemonConfigsStep: Step = {
  title: "The daemons' configuration in Debian's places",
  async run(context: InstallContext) {
    const { options, secrets, say, changedUnits } = context;
    const mark = (changed: boolean, unit: string, what: string) => {
      if (!changed) return;
      changedUnits.add(unit);
      say(what);
    };
    if (await ensureSelfSigned(`${MAIL_TLS_DIR}/default`, options.mailHost, options.provider)) {
      changedUnits.add('postfix.service');
      mark(
        true,
        'dovecot.service',
        `made a self-signed certificate for ${options.mailHost} (mail, until the panel orders one: docs/OPERATIONS.md, "Mail certificates")`,
      );
    }
    mark(
      await ensureSelfSigned(PANEL_TLS_DIR, options.panelHost, options.provider),
      'nginx.service',
      `made a self-signed certificate for ${options.panelHost} (the panel, until a CA's replaces it: docs/OPERATIONS.md, "The panel's own certificate")`,
    );
    for (const key of ensureSftpHostKeys('/etc/proftpd'))
      mark(true, 'proftpd.service', `made the SFTP host key ${key}`);
    let unchanged = 0;
    for (const file of configFiles(options, secrets)) {
      const gid = file.group ? await requiredGroupId(file.group) : 0;
      if (writeIfChanged(file.path, file.render(), { mode: file.mode, gid }))
        mark(true, file.unit, `wrote ${file.path}`);
      else unchanged++;
    }
    if (unchanged > 0) say(`${unchanged} files already as rendered`);
    // Postfix opens its SNI map at start; empty until the panel writes the first mail certificate
    // (postmap reads main.cf: after it is written)
    if (!existsSync(`${MAIL_TLS_DIR}/postfix-sni.db`)) {
      writeIfChanged(`${MAIL_TLS_DIR}/postfix-sni`, '', { mode: 0o644 });
      await run('postmap', ['-F', `hash:${MAIL_TLS_DIR}/postfix-sni`]);
      mark(true, 'postfix.service', 'made an empty SNI map for Postfix');
    }
    const dovecotGid = await requiredGroupId('dovecot');
    mark(
      writeIfChanged('/var/lib/dovecot/master-users', await masterUsersLine(secrets.WEBMAIL_MASTER_PASSWORD), {
        mode: 0o640,
        gid: dovecotGid,
      }),
      'dovecot.service',
      'wrote the WebMail master user of /var/lib/dovecot/master-users',
    );
    if (changedUnits.has('postfix.service')) await run('postfix', ['check']);
  },
};
