import { existsSync, readFileSync } from 'node:fs';
import { PANEL_ENV_FILE, PHP_VERSION, RSPAMD_SCANNER, SECRETS_FILE, type Step } from './context.ts';
import { keepOrGenerateSecrets, parseEnvFile, renderEnvFile, type Secrets } from './env-file.ts';
import { mariadbUrl } from './mariadb.ts';
import type { InstallOptions } from './options.ts';
import { groupId, requiredGroupId, requiredUserId, run, type Say, writeIfChanged } from './system.ts';

/** The secrets of an earlier run, with the missing ones generated; kept in a root-only file. */
export function loadSecrets(say: Say): Secrets {
  const existing = existsSync(SECRETS_FILE) ? parseEnvFile(readFileSync(SECRETS_FILE, 'utf8')) : new Map();
  const { secrets, generated } = keepOrGenerateSecrets(existing);
  const text = renderEnvFile(
    'Secrets the installer generated (database roles, keys): kept on every re-run. Root only.',
    Object.entries(secrets),
  );
  if (writeIfChanged(SECRETS_FILE, text, { mode: 0o600 }))
    say(`generated ${generated.length} secrets in ${SECRETS_FILE}`);
  else say(`kept the secrets of ${SECRETS_FILE}`);
  return secrets;
}

export const groupStep: Step = {
  title: "The panel's group",
  async run({ say }) {
    if ((await groupId('panel247')) !== undefined) {
      say('group panel247 exists');
      return;
    }
    await run('groupadd', ['--system', 'panel247']);
    say('made the system group panel247');
  },
};

/**
 * The panel's settings for a machine with every daemon of the guide on it: PostgreSQL, the real
 * drivers, Debian's places, the provider's DNS values. The environment file the unit and the
 * command-line tool read.
 */
export function panelSettings(options: InstallOptions, secrets: Secrets): Array<[string, string]> {
  const settings: Array<[string, string]> = [
    ['HOST', '127.0.0.1'],
    ['PORT', '8247'],
    ['PANEL_DATA_DIR', '/var/lib/panel247'],
    ['PANEL_DATABASE_URL', `postgres://panel247:${secrets.PANEL_DB_PASSWORD}@127.0.0.1:5432/panel247`],
    ['PANEL_TRUST_PROXY', 'true'],
    ['PANEL_ALLOWED_ORIGINS', `https://${options.panelHost}`],
    ['PANEL_HOSTING_ROOT', '/var/www/panel247'],
    ['PANEL_MAIL_ROOT', '/var/mail/panel247'],
    ['PANEL_DNS_DRIVER', 'powerdns'],
    ['PANEL_POWERDNS_API_URL', 'http://127.0.0.1:8081'],
    ['PANEL_POWERDNS_API_KEY', secrets.POWERDNS_API_KEY],
    ['PANEL_DNS_NAMESERVERS', options.nameservers.join(',')],
    ['PANEL_DNS_WEB_IPV4', options.ipv4],
    ['PANEL_DNS_WEB_IPV6', options.ipv6],
    ['PANEL_DNS_MAIL_IPV4', options.ipv4],
    ['PANEL_DNS_WEB_HOST', options.panelHost],
    ['PANEL_DNS_MAIL_HOST', options.mailHost],
    ['PANEL_DNS_SPF_INCLUDE', options.spfInclude],
    ['PANEL_DNS_DMARC_REPORT', options.dmarcReport],
    ['PANEL_MAIL_DOVEADM_CONFIG', '/etc/dovecot/dovecot.conf'],
    ['PANEL_MAIL_TLS_DIR', '/etc/panel247/mail-tls'],
    ['PANEL_MAIL_POLICY_LISTEN', '/var/spool/postfix/private/panel247-policy'],
    ['PANEL_MAIL_POSTFIX_CONFIG_DIR', '/etc/postfix'],
    ['PANEL_MAIL_DRIVER', 'dovecot'],
    ['PANEL_MAIL_DKIM_DRIVER', 'opendkim'],
    ['PANEL_MAIL_OPENDKIM_DIR', '/etc/opendkim/panel'],
    ['PANEL_MAIL_RSPAMD_ADDRESS', RSPAMD_SCANNER],
    ['PANEL_MAIL_OPENDKIM_PID_FILE', '/run/opendkim/opendkim.pid'],
    ['PANEL_FTP_DRIVER', 'proftpd'],
    ['PANEL_WEB_DRIVER', 'nginx'],
    ['PANEL_WEB_CONFIG_DIR', '/etc/panel247/web'],
    ['PANEL_WEB_LOG_DIR', '/var/log/panel247/web'],
    ['PANEL_WEB_ACME_CHALLENGE_DIR', '/var/www/panel247-acme'],
    ['PANEL_WEB_NGINX_CONF', '/etc/nginx/nginx.conf'],
    ['PANEL_WEB_NGINX_PID_FILE', '/run/nginx.pid'],
    ['PANEL_WEB_PHP_SOCKETS', `${PHP_VERSION}=/run/php/panel247-${PHP_VERSION}`],
    ['PANEL_WEB_PHP_PID_FILES', `${PHP_VERSION}=/run/php/php${PHP_VERSION}-fpm.pid`],
    ['PANEL_SERVICE_USERS_DRIVER', 'system'],
    ['PANEL_SEED_DEMO', 'false'],
    ['PANEL_ACME_EMAIL', options.acmeEmail],
    ['PANEL_DATABASES_DRIVER', 'mariadb'],
    ['PANEL_DATABASES_URL', mariadbUrl(secrets)],
    ['PANEL_PHPMYADMIN_KEY', secrets.PHPMYADMIN_KEY],
    ['PANEL_WEBMAIL_KEY', secrets.WEBMAIL_KEY],
  ];
  // customers' zones get the AAAA: their sites answer on IPv6 too (nginx's `80` is IPv4 only)
  if (options.ipv6)
    settings.push(['PANEL_WEB_HTTP_LISTEN', httpListen(options)], ['PANEL_WEB_HTTPS_LISTEN', httpsListen(options)]);
  if (options.trial) settings.push(['PANEL_DNS_ALLOW_PLACEHOLDERS', 'true']);
  return settings;
}

/**
 * Doctor's probe logins: a mailbox and an FTP account of the provider's probe service
 * `probe.<panel host>`, which the probes step makes with `panel doctor probes`. Values an operator
 * put in the file instead (their own probe service) are kept, in the same place.
 */
export function probeSettings(
  options: InstallOptions,
  secrets: Secrets,
  existing: Map<string, string>,
): Array<[string, string]> {
  const login = `doctor@probe.${options.panelHost}`;
  const ours: Array<[string, string]> = [
    ['PANEL_DOCTOR_MAIL_LOGIN', login],
    ['PANEL_DOCTOR_MAIL_PASSWORD', secrets.DOCTOR_MAIL_PASSWORD],
    ['PANEL_DOCTOR_FTP_LOGIN', login],
    ['PANEL_DOCTOR_FTP_PASSWORD', secrets.DOCTOR_FTP_PASSWORD],
  ];
  return ours.map(([name, value]) => [name, existing.get(name) ?? value]);
}

/** Where nginx takes plain HTTP: every address on IPv4, and on IPv6 when the machine has an address there. */
export function httpListen(options: InstallOptions): string {
  return options.ipv6 ? '80 [::]:80' : '80';
}

export function httpsListen(options: InstallOptions): string {
  return options.ipv6 ? '443 [::]:443' : '443';
}

/** Settings an operator added by hand to the file are kept after the installer's own. */
export function mergedSettings(ours: Array<[string, string]>, existing: Map<string, string>): Array<[string, string]> {
  const names = new Set(ours.map(([name]) => name));
  return [...ours, ...[...existing].filter(([name]) => !names.has(name))];
}

export const panelEnvStep: Step = {
  title: `The panel's settings (${PANEL_ENV_FILE})`,
  async run({ options, secrets, say, changedUnits }) {
    const existing = existsSync(PANEL_ENV_FILE) ? parseEnvFile(readFileSync(PANEL_ENV_FILE, 'utf8')) : new Map();
    // OpenDKIM's key files are given to its user, whose ids Debian's package chose
    const ours = panelSettings(options, secrets);
    ours.push(['PANEL_MAIL_OPENDKIM_UID', String(await requiredUserId('opendkim'))]);
    ours.push(['PANEL_MAIL_OPENDKIM_GID', String(await requiredGroupId('opendkim'))]);
    ours.push(...probeSettings(options, secrets, existing));
    const text = renderEnvFile(
      "Panel247's settings, written by deploy/install.sh (docs/OPERATIONS.md). A re-run rewrites its own\nlines and keeps the others.",
      mergedSettings(ours, existing),
    );
    const gid = await requiredGroupId('panel247');
    if (writeIfChanged(PANEL_ENV_FILE, text, { mode: 0o640, gid })) {
      changedUnits.add('panel247.service');
      say(`wrote ${PANEL_ENV_FILE} (0640 root:panel247)`);
    } else say(`${PANEL_ENV_FILE} unchanged`);
  },
};
