import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileAsync, requireBinary, workDir } from '../../../../scripts/daemons/daemon-harness.ts';
import { DEPLOY, fillDeployTemplate, POSTFIX_MAPS } from '../../../../scripts/daemons/deploy-template.ts';
import { nginxArgs, nginxBinary, webIdentity } from '../../../../scripts/daemons/nginx-php.ts';
import { writeNginxAround } from '../../../../scripts/daemons/nginx-site.ts';

/**
 * The templates rendered with the production values docs/OPERATIONS.md gives (Debian's folders,
 * every address, syslog, a real host name), then read by each daemon's own configuration checker:
 * what the guide says renders into Debian's places with no hand edit. Only the folder the files
 * are written to differs from a machine's /etc.
 */
describe('the deploy/ templates rendered with the guide’s production values', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await workDir('deploy-production');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const render = (template: string, file: string, values: Record<string, string>) => {
    const target = path.join(dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, fillDeployTemplate(template, values));
    return target;
  };

  it('Postfix: Debian’s queue and data folders, syslog, the MX name, every address', async () => {
    const postconf = requireBinary('postconf', 'postfix');
    const etc = path.join(dir, 'postfix');
    const values = {
      DIR: etc,
      QUEUE_DIR: '/var/spool/postfix',
      DATA_DIR: '/var/lib/postfix',
      MAILLOG_FILE: '',
      HOSTNAME: 'mx.provider.example',
      INET_INTERFACES: 'all',
      INET_PROTOCOLS: 'all',
      PORT: '25',
      SUBMISSION_PORT: '587',
      SUBMISSIONS_PORT: '465',
      LMTP_PORT: '24',
      MAPTYPE: 'pgsql',
      TLS_DIR: '/etc/panel247/mail-tls',
      SASL_SOCKET: 'private/auth',
      POLICY_SERVICE: '',
      CONNECTION: 'hosts = 127.0.0.1:5432\nuser = panel247_mail\npassword = secret\ndbname = panel247',
      NODE: '',
    };
    render('postfix-mail/main.cf.template', 'postfix/main.cf', values);
    render('postfix-mail/master.cf.template', 'postfix/master.cf', values);
    for (const map of POSTFIX_MAPS) render(`postfix-mail/${map}.cf.template`, `postfix/${map}.cf`, values);
    const names = ['queue_directory', 'data_directory', 'maillog_file', 'myhostname', 'inet_interfaces'];
    const { stdout, stderr } = await execFileAsync(postconf, ['-c', etc, '-h', ...names]);
    expect(stderr).toBe('');
    expect(stdout.split('\n').slice(0, names.length)).toEqual([
      '/var/spool/postfix',
      '/var/lib/postfix',
      '',
      'mx.provider.example',
      'all',
    ]);
    // the smtpd services name no address: they listen where inet_interfaces says
    const services = (await execFileAsync(postconf, ['-c', etc, '-M'])).stdout;
    expect(services).toMatch(/^25\s+inet\s/m);
    expect(services).toMatch(/^587\s+inet\s/m);
    expect(services).toMatch(/^465\s+inet\s/m);
  });

  it('Dovecot: Debian’s folders, syslog, every address, the SQL and master-users files where the guide puts them', async () => {
    const doveconf = requireBinary('doveconf', 'dovecot-core');
    const tls = path.join(dir, 'mail-tls');
    mkdirSync(tls, { recursive: true });
    const conf = render('dovecot/dovecot.conf.template', 'dovecot/dovecot.conf', {
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
      TLS_DIR: tls,
      SASL_SOCKET: '/var/spool/postfix/private/auth',
      SIEVE_BIN_DIR: '/usr/lib/panel247/sieve-execute',
    });
    const setting = async (name: string) => (await execFileAsync(doveconf, ['-c', conf, '-h', name])).stdout.trim();
    expect(await setting('listen')).toBe('*, ::');
    expect(await setting('base_dir')).toBe('/run/dovecot');
    expect(await setting('log_path')).toBe('syslog');
    const passdbs = (await execFileAsync(doveconf, ['-c', conf, 'passdb'])).stdout;
    expect(passdbs).toContain('args = /var/lib/dovecot/master-users');
    expect(passdbs).toContain('args = /etc/dovecot/dovecot-sql.conf.ext');
  });

  it('PowerDNS: pdns.conf with the gpgsql backend in its include-dir, answering on every address', async () => {
    const pdns = requireBinary('pdns_server', 'pdns-server');
    const configDir = path.join(dir, 'powerdns');
    render('powerdns/pdns.conf.template', 'powerdns/pdns.conf', {
      INCLUDE_DIR: path.join(configDir, 'pdns.d'),
      LISTEN: '0.0.0.0, ::',
      SOCKET_DIR: '/run/pdns',
      DNS_PORT: '53',
      API_PORT: '8081',
      API_KEY: 'a'.repeat(64),
    });
    render('powerdns/backend-gpgsql.conf.template', 'powerdns/pdns.d/panel247-backend.conf', {
      PG_HOST: '127.0.0.1',
      PG_PORT: '5432',
      PG_DBNAME: 'pdns',
      PG_USER: 'pdns',
      PG_PASSWORD: 'secret',
    });
    // PowerDNS prints the configuration it would run with, without starting (the backend's own
    // settings are read when it starts: the DNS integration test serves from gpgsql)
    const { stdout } = await execFileAsync(pdns, [`--config-dir=${configDir}`, '--config']);
    expect(stdout).toMatch(/^launch=gpgsql$/m);
    // (a value equal to PowerDNS's default is printed commented out)
    expect(stdout).toMatch(/^(# )?local-address=0\.0\.0\.0, ::$/m);
    expect(stdout).toMatch(/^(# )?local-port=53$/m);
    expect(stdout).toMatch(/^socket-dir=\/run\/pdns$/m);
  });

  it('Roundcube’s and phpMyAdmin’s nginx sites pass nginx -t with Debian’s paths', async () => {
    nginxBinary();
    const sites = path.join(dir, 'sites');
    render('webmail/nginx-site.conf.template', 'sites/webmail.conf', {
      LISTEN: '8080',
      SERVER_NAME: 'webmail.provider.example',
      ROUNDCUBE_ROOT: '/var/lib/roundcube/public_html',
      FPM_SOCKET: '/run/php/panel247-roundcube.sock',
      FASTCGI_PARAMS: path.join(DEPLOY, 'nginx', 'fastcgi-params.conf'),
    });
    render('phpmyadmin/nginx-site.conf.template', 'sites/phpmyadmin.conf', {
      LISTEN: '8081',
      SERVER_NAME: 'db.provider.example',
      PHPMYADMIN_ROOT: '/usr/share/phpmyadmin',
      SIGNON_SCRIPT: '/usr/local/share/panel247/panel247-signon.php',
      FPM_SOCKET: '/run/php/panel247-phpmyadmin.sock',
      FASTCGI_PARAMS: path.join(DEPLOY, 'phpmyadmin', 'fastcgi-params.conf'),
    });
    const { config, errorLog } = writeNginxAround(dir, path.join(sites, '*.conf'), webIdentity());
    const checked = await execFileAsync(nginxBinary(), [...nginxArgs(dir, config, errorLog), '-t']);
    expect(checked.stderr).toContain('test is successful');
  });
});
