import { describe, expect, it } from 'vitest';
import { configFiles } from '../../../../scripts/install/daemon-configs.ts';
import { keepOrGenerateSecrets, parseEnvFile, renderEnvFile } from '../../../../scripts/install/env-file.ts';
import { adminLoginSql } from '../../../../scripts/install/mariadb.ts';
import { OptionsError, resolveOptions } from '../../../../scripts/install/options.ts';
import { phpMyAdminFiles } from '../../../../scripts/install/phpmyadmin.ts';
import { roundcubeFiles } from '../../../../scripts/install/roundcube.ts';
import { mergedSettings, panelSettings, probeSettings } from '../../../../scripts/install/settings.ts';

const GOOD = [
  '--provider',
  'Hosting Norte, S.L.',
  '--panel-host',
  'panel.hosting-norte.es',
  '--mail-host=mail.hosting-norte.es',
  '--nameservers',
  'ns1.hosting-norte.es,ns2.hosting-norte.es',
  '--ipv4',
  '85.10.1.7',
  '--acme-email',
  'hostmaster@hosting-norte.es',
];

async function problemsOf(args: string[]): Promise<string[]> {
  try {
    await resolveOptions(args);
  } catch (error) {
    if (error instanceof OptionsError) return error.problems;
    throw error;
  }
  return [];
}

describe('the installer’s flags', () => {
  it('takes the provider’s values, the optional ones empty', async () => {
    const options = await resolveOptions(GOOD);
    expect(options).toMatchObject({
      provider: 'Hosting Norte, S.L.',
      mailHost: 'mail.hosting-norte.es',
      nameservers: ['ns1.hosting-norte.es', 'ns2.hosting-norte.es'],
      ipv6: '',
      spfInclude: '',
      trial: false,
    });
  });

  it('refuses documentation values unless it is a trial', async () => {
    const args = [...GOOD, '--ipv6', '2001:db8::10', '--dmarc-report', 'dmarc@panel247.test'];
    expect(await problemsOf(args)).toEqual([
      expect.stringMatching(/^--ipv6: 2001:db8::10 is reserved for documentation/),
      expect.stringMatching(/^--dmarc-report: dmarc@panel247\.test is reserved/),
    ]);
    expect((await resolveOptions([...args, '--trial'])).ipv6).toBe('2001:db8::10');
  });

  it('checks every value against its allow-list before it reaches a file or a command', async () => {
    const bad = [
      '--provider',
      'Evil"\nPANEL_X=1',
      '--panel-host',
      'panel.example.com;reboot',
      '--mail-host',
      '-oProxyCommand=x',
      '--nameservers',
      'ns1.hosting-norte.es',
      '--ipv4',
      '999.1.1.1',
      '--acme-email',
      'a b@c.es',
    ];
    expect(await problemsOf(bad)).toHaveLength(6);
    expect(await problemsOf(['--ipv4'])).toEqual(['--ipv4: needs a value']);
    expect(await problemsOf(['--unknown'])).toEqual(['--unknown: not a flag of the installer']);
    expect(await problemsOf([...GOOD, '--ipv4', '85.10.1.8'])).toEqual(['--ipv4: given twice']);
  });

  it('asks for a missing value when a terminal is attached', async () => {
    const asked: string[] = [];
    const options = await resolveOptions(GOOD.slice(0, 4), async (question) => {
      asked.push(question);
      return (
        {
          "The mail (MX) host's name: ": 'mail.hosting-norte.es',
          'The name servers, comma-separated: ': 'ns1.a.es,ns2.a.es',
          "This machine's public IPv4 address: ": '85.10.1.7',
          "The ACME account's e-mail: ": 'hm@a.es',
        }[question] ?? ''
      );
    });
    expect(asked).toHaveLength(7);
    expect(options.nameservers).toEqual(['ns1.a.es', 'ns2.a.es']);
  });
});

describe('the installer’s environment files', () => {
  it('keeps the secrets of an earlier run and generates only the missing ones', () => {
    const first = keepOrGenerateSecrets(new Map());
    expect(first.generated).toHaveLength(Object.keys(first.secrets).length);
    const text = renderEnvFile('secrets', Object.entries(first.secrets));
    const second = keepOrGenerateSecrets(parseEnvFile(text));
    expect(second.secrets).toEqual(first.secrets);
    expect(second.generated).toEqual([]);
    expect(first.secrets.ROUNDCUBE_DES_KEY).toMatch(/^[0-9a-f]{24}$/);
  });

  it('writes the provider’s DNS values and keeps lines an operator added', async () => {
    const options = await resolveOptions(GOOD);
    const { secrets } = keepOrGenerateSecrets(new Map());
    const merged = mergedSettings(
      panelSettings(options, secrets),
      new Map([
        ['PANEL_LOG_LEVEL', 'debug'],
        ['PANEL_DNS_WEB_IPV4', '192.0.2.10'],
      ]),
    );
    const values = parseEnvFile(renderEnvFile('panel', merged));
    expect(values.get('PANEL_DNS_WEB_IPV4')).toBe('85.10.1.7');
    expect(values.get('PANEL_DNS_NAMESERVERS')).toBe('ns1.hosting-norte.es,ns2.hosting-norte.es');
    expect(values.get('PANEL_LOG_LEVEL')).toBe('debug');
    expect(values.has('PANEL_DNS_ALLOW_PLACEHOLDERS')).toBe(false);
    expect(() => renderEnvFile('x', [['PANEL_X', 'a"b']])).toThrow(/characters the file cannot hold/);
  });

  it("gives doctor probe logins of the provider's probe service, and keeps an operator's own in their place", async () => {
    const options = await resolveOptions(GOOD);
    const { secrets } = keepOrGenerateSecrets(new Map());
    expect(probeSettings(options, secrets, new Map())).toEqual([
      ['PANEL_DOCTOR_MAIL_LOGIN', 'doctor@probe.panel.hosting-norte.es'],
      ['PANEL_DOCTOR_MAIL_PASSWORD', secrets.DOCTOR_MAIL_PASSWORD],
      ['PANEL_DOCTOR_FTP_LOGIN', 'doctor@probe.panel.hosting-norte.es'],
      ['PANEL_DOCTOR_FTP_PASSWORD', secrets.DOCTOR_FTP_PASSWORD],
    ]);
    const own = new Map([
      ['PANEL_DOCTOR_MAIL_LOGIN', 'sonda@hosting-norte.es'],
      ['PANEL_DOCTOR_MAIL_PASSWORD', 'own-password-1'],
    ]);
    expect(probeSettings(options, secrets, own).slice(0, 2)).toEqual([
      ['PANEL_DOCTOR_MAIL_LOGIN', 'sonda@hosting-norte.es'],
      ['PANEL_DOCTOR_MAIL_PASSWORD', 'own-password-1'],
    ]);
  });
});

describe('the installer’s nginx on IPv6', () => {
  it('listens on IPv6 too, for the panel and the customers’ sites, when the machine has an address there', async () => {
    const { secrets } = keepOrGenerateSecrets(new Map());
    const rendered = async (args: string[]) => {
      const options = await resolveOptions(args);
      const files = new Map(configFiles(options, secrets).map((file) => [file.path, file]));
      return {
        settings: new Map(panelSettings(options, secrets)),
        proxy: files.get('/etc/nginx/panel247/panel-proxy.conf')?.render() ?? '',
        main: files.get('/etc/nginx/nginx.conf')?.render() ?? '',
      };
    };
    const v4 = await rendered(GOOD);
    expect(v4.settings.has('PANEL_WEB_HTTP_LISTEN')).toBe(false);
    expect(v4.proxy).not.toContain('[::]');
    const dual = await rendered([...GOOD, '--ipv6', '2a01:4f8:1:2::7']);
    expect(dual.settings.get('PANEL_WEB_HTTP_LISTEN')).toBe('80 [::]:80');
    expect(dual.settings.get('PANEL_WEB_HTTPS_LISTEN')).toBe('443 [::]:443');
    expect(dual.proxy).toMatch(/listen 80;\n\s+listen \[::\]:80;/);
    expect(dual.proxy).toMatch(/listen 443 ssl;\n\s+listen \[::\]:443 ssl;/);
    expect(dual.proxy).toContain('location /webmail/ {');
    expect(dual.main).toMatch(/listen 80 default_server;\n\s+listen \[::\]:80 default_server;/);
    expect(parseEnvFile(renderEnvFile('panel', [...dual.settings])).get('PANEL_WEB_HTTP_LISTEN')).toBe('80 [::]:80');
  });
});

describe('the installer’s MariaDB, phpMyAdmin and Roundcube', () => {
  it('gives the panel the mariadb driver with an admin login of its own on loopback, never root', async () => {
    const options = await resolveOptions(GOOD);
    const { secrets } = keepOrGenerateSecrets(new Map());
    const values = new Map(panelSettings(options, secrets));
    expect(values.get('PANEL_DATABASES_DRIVER')).toBe('mariadb');
    expect(values.get('PANEL_DATABASES_URL')).toBe(`mysql://panel247:${secrets.MARIADB_ADMIN_PASSWORD}@127.0.0.1:3306`);
    const sql = adminLoginSql(secrets);
    expect(sql).toContain("GRANT ALL PRIVILEGES ON *.* TO 'panel247'@'127.0.0.1' WITH GRANT OPTION;");
    expect(sql).not.toMatch(/root/i);
    expect(() => adminLoginSql({ ...secrets, MARIADB_ADMIN_PASSWORD: "x'; DROP USER root; --" })).toThrow(/hex/);
  });

  it('fills every placeholder of phpMyAdmin’s files, the shared key and blowfish secret readable by root and the pool only', async () => {
    const options = await resolveOptions(GOOD);
    const { secrets } = keepOrGenerateSecrets(new Map());
    const files = new Map(phpMyAdminFiles(options, secrets, { gid: 999 }).map((file) => [file.path, file]));
    const config = files.get('/etc/phpmyadmin/config.inc.php');
    expect(config?.text).toContain(`sodium_hex2bin('${secrets.PHPMYADMIN_BLOWFISH_HEX}')`);
    expect(config?.text).toContain("'SignonURL'] = 'https://panel.hosting-norte.es/'");
    expect(config).toMatchObject({ mode: 0o640, gid: 999 });
    const pool = files.get('/etc/php/8.2/fpm/panel247-phpmyadmin.conf');
    expect(pool?.text).toContain(`env[PANEL247_PHPMYADMIN_KEY] = "${secrets.PHPMYADMIN_KEY}"`);
    expect(pool?.text).toContain('user = panel247-phpmyadmin');
    expect(pool?.mode).toBe(0o600);
    expect(files.get('/etc/nginx/panel247/phpmyadmin.conf')?.text).toContain('listen 127.0.0.1:8248;');
    expect(files.get('/etc/nginx/panel247/phpmyadmin.conf')?.text).toContain(
      'include /etc/nginx/panel247/proxied-fastcgi.params;',
    );
    for (const file of files.values()) expect(file.text).not.toMatch(/@[A-Z_]+@/);
  });

  it('fills every placeholder of Roundcube’s files: the plugin, its keys readable by root and the pool only, PostgreSQL, submission on loopback', async () => {
    const options = await resolveOptions(GOOD);
    const { secrets } = keepOrGenerateSecrets(new Map());
    const files = new Map(roundcubeFiles(options, secrets, { gid: 998 }).map((file) => [file.path, file]));
    const config = files.get('/etc/roundcube/config.inc.php');
    expect(config?.text).toContain(
      `$config['db_dsnw'] = 'pgsql://roundcube:${secrets.ROUNDCUBE_DB_PASSWORD}@127.0.0.1/roundcube';`,
    );
    expect(config?.text).toContain("$config['smtp_host'] = 'tls://127.0.0.1:587';");
    expect(config?.text).toContain("'verify_peer' => false");
    expect(config).toMatchObject({ mode: 0o640, gid: 998 });
    const signon = files.get('/etc/roundcube/panel247_signon.inc.php');
    expect(signon?.text).toContain(`'${secrets.WEBMAIL_MASTER_PASSWORD}'`);
    expect(signon).toMatchObject({ mode: 0o640, gid: 998 });
    expect(files.get('/etc/php/8.2/fpm/panel247-roundcube.conf')?.text).toContain('user = panel247-roundcube');
    expect(files.has('/var/lib/roundcube/plugins/panel247_signon/redeem.php')).toBe(true);
    expect(files.get('/etc/nginx/panel247/webmail.conf')?.text).toContain('listen 127.0.0.1:8249;');
    for (const file of files.values()) expect(file.text).not.toMatch(/@[A-Z_]+@/);
  });
});
