import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { setupChecks } from '../../src/drivers/doctor/setup-checks.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'p247-doctor-setup-'));
// searchable by nginx's user down to the socket folders, as /run is
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const byName = async (env: Record<string, string>) =>
  Object.fromEntries(
    (await Promise.all(setupChecks(loadConfig({ PANEL_DATA_DIR: dir, ...env })))).map((check) => [check.name, check]),
  );

describe('doctor: DNS settings a customer’s zone would get', () => {
  it('documentation values served by PowerDNS fail, naming each setting, with the fix', async () => {
    const check = (await byName({ PANEL_DNS_DRIVER: 'powerdns', PANEL_POWERDNS_API_URL: 'http://127.0.0.1:1' }))[
      'dns settings'
    ];
    expect(check).toMatchObject({ ok: false });
    expect(check?.detail).toContain('PANEL_DNS_NAMESERVERS ns1.panel247.test');
    expect(check?.fix).toContain('npm run panel -- dns placeholders --fix');
  });

  it('the provider’s own values pass; a trial that allows them, or no zone served, is skipped', async () => {
    const own = {
      PANEL_DNS_DRIVER: 'powerdns',
      PANEL_POWERDNS_API_URL: 'http://127.0.0.1:1',
      PANEL_DNS_NAMESERVERS: 'ns1.provider.eu,ns2.provider.eu',
      PANEL_DNS_WEB_IPV4: '198.18.0.10',
      PANEL_DNS_WEB_IPV6: '',
      PANEL_DNS_MAIL_IPV4: '198.18.0.25',
      PANEL_DNS_SPF_INCLUDE: '',
      PANEL_DNS_DMARC_REPORT: '',
      PANEL_DNS_WEB_HOST: 'web.provider.eu',
      PANEL_DNS_MAIL_HOST: 'mail.provider.eu',
    };
    const passed = (await byName(own))['dns settings'];
    expect(passed).toMatchObject({ ok: true, detail: "no documentation value reaches a customer's zone" });
    expect(passed?.skipped).toBeUndefined();
    expect(
      (
        await byName({
          PANEL_DNS_DRIVER: 'powerdns',
          PANEL_POWERDNS_API_URL: 'http://127.0.0.1:1',
          PANEL_DNS_ALLOW_PLACEHOLDERS: 'true',
        })
      )['dns settings'],
    ).toMatchObject({ ok: true, skipped: true });
    expect((await byName({}))['dns settings']).toMatchObject({ ok: true, skipped: true });
  });
});

describe('doctor: nginx reaches the PHP sockets', () => {
  const folder = path.join(dir, 'run', 'php-8.2');
  const env = { PANEL_WEB_DRIVER: 'nginx', PANEL_WEB_PHP_SOCKETS: `8.2=${folder}`, PANEL_WEB_NGINX_USER: 'www-data' };

  it('a folder nginx’s user cannot search (0700 root) fails with the mode and the fix', async () => {
    mkdirSync(folder, { recursive: true });
    chmodSync(path.dirname(folder), 0o755);
    chmodSync(folder, 0o700);
    const check = (await byName(env))['php sockets 8.2'];
    expect(check).toMatchObject({ ok: false });
    expect(check?.detail).toContain(`${folder} (mode 700`);
    expect(check?.fix).toContain('systemd-tmpfiles --create');
  });

  it('0755 passes; with the embedded web driver it is skipped', async () => {
    chmodSync(folder, 0o755);
    expect((await byName(env))['php sockets 8.2']).toMatchObject({ ok: true });
    expect((await byName({}))['php sockets 8.2']).toMatchObject({ ok: true, skipped: true });
  });
});
