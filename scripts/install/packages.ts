import type { Step } from './context.ts';
import { run } from './system.ts';

/**
 * Debian's packages for a panel on PostgreSQL (docs/OPERATIONS.md, "Installing on Debian 12",
 * step 1), OpenDKIM, and openssl for the certificate the TLS proxy starts with.
 */
export const PACKAGES = [
  'postgresql',
  'pdns-server',
  'pdns-backend-pgsql',
  'postfix',
  'postfix-pgsql',
  'dovecot-imapd',
  'dovecot-lmtpd',
  'dovecot-pgsql',
  'dovecot-sieve',
  'proftpd-core',
  'proftpd-mod-pgsql',
  'proftpd-mod-crypto',
  'nginx',
  'php8.2-fpm',
  // the scheduled tasks' scripts (PANEL_CRON_PHP, /usr/bin/php)
  'php8.2-cli',
  'php8.2-mysql',
  'mariadb-server',
  'mariadb-client',
  'phpmyadmin',
  'roundcube-core',
  'roundcube-pgsql',
  'opendkim',
  'openssl',
  // every backup and restore
  'restic',
  // the sites' statistics (PANEL_STATS_GOACCESS)
  'goaccess',
  // the mailboxes' spam filter (deploy/rspamd, deploy/dovecot/panel247-spam-score.template)
  'rspamd',
  'ca-certificates',
] as const;

/**
 * debconf answers so no package asks or configures what the installer does itself: Postfix gets
 * no configuration of its own (the panel's main.cf replaces it), phpMyAdmin and Roundcube neither
 * a database through dbconfig nor a web server's site.
 */
export function preseeds(mailHost: string): string {
  return [
    'postfix postfix/main_mailer_type select No configuration',
    `postfix postfix/mailname string ${mailHost}`,
    'phpmyadmin phpmyadmin/dbconfig-install boolean false',
    'phpmyadmin phpmyadmin/reconfigure-webserver multiselect',
    'roundcube-core roundcube/dbconfig-install boolean false',
    'roundcube-core roundcube/reconfigure-webserver multiselect',
    'roundcube-core roundcube/restart-webserver boolean false',
    '',
  ].join('\n');
}

/** The packages of the list that dpkg does not have installed. */
export async function missingPackages(): Promise<string[]> {
  // dpkg-query's own ${field} format, not a template string
  const format = ['-f=$', '{Package} $', '{db:Status-Status}\\n'].join('');
  const { stdout } = await run('dpkg-query', ['-W', format, ...PACKAGES], {
    allowedCodes: [1],
  });
  const installed = new Set(
    stdout
      .split('\n')
      .filter((line) => line.endsWith(' installed'))
      .map((line) => line.split(' ')[0]),
  );
  return PACKAGES.filter((name) => !installed.has(name));
}

export const packagesStep: Step = {
  title: 'Debian packages',
  async run({ options, say }) {
    const missing = await missingPackages();
    if (missing.length === 0) {
      say(`all ${PACKAGES.length} packages already installed`);
      return;
    }
    await run('debconf-set-selections', [], { input: preseeds(options.mailHost) });
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await run('apt-get', ['update'], { env });
    await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env });
    say(`installed ${missing.join(' ')}`);
  },
};
