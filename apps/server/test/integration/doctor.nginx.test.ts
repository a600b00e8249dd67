import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServers, type WebServers } from '../../../../scripts/daemons/web.ts';
import { type AppConfig, loadConfig } from '../../src/config.ts';
import type { DaemonCheck } from '../../src/drivers/doctor/daemon-check.ts';
import { phpPageChecks } from '../../src/drivers/doctor/php-page-check.ts';
import { setupChecks } from '../../src/drivers/doctor/setup-checks.ts';
import { NginxWebDriver } from '../../src/drivers/web/nginx.driver.ts';
import type { DaemonError } from '../../src/errors.ts';

/**
 * doctor's PHP probes on a real nginx and PHP-FPM 8.2 (the deploy/nginx kit, on loopback): a PHP
 * page through nginx for a site the web driver wrote passes and leaves nothing behind; a socket
 * folder nginx cannot search and a stopped PHP-FPM master are failures that say which, with the fix.
 */
describe('doctor: a PHP page through a real nginx and PHP-FPM', () => {
  let servers: WebServers;
  let config: AppConfig;
  let home: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-doctor-nginx-'));

  const runDir = () => path.join(servers.dir, 'run');
  const checks = async (): Promise<Record<string, DaemonCheck>> => {
    const all = await Promise.all([...(await phpPageChecks(config)), ...setupChecks(config)]);
    return Object.fromEntries(all.map((check) => [check.name, check]));
  };
  /** Whether nginx serves the site's static page (its reload has taken effect). */
  const served = () =>
    new Promise<boolean>((resolve) => {
      http
        .get(
          { host: '127.0.0.1', port: servers.httpPort, path: '/', headers: { host: 'shop.test' }, agent: false },
          (response) => {
            response.resume();
            resolve(response.statusCode === 200);
          },
        )
        .on('error', () => resolve(false));
    });

  beforeAll(async () => {
    servers = await startWebServers();
    const options = servers.driverOptions;
    home = path.join(servers.dir, 'homes', 'shop.test');
    mkdirSync(path.join(home, 'public'), { recursive: true });
    for (const folder of ['homes', 'homes/shop.test', 'homes/shop.test/public']) {
      chmodSync(path.join(servers.dir, folder), 0o755);
    }
    writeFileSync(path.join(home, 'public', 'index.html'), 'shop\n');
    chmodSync(path.join(home, 'public', 'index.html'), 0o644);
    // the home is its service's, as the panel makes it (here the shared hosting user, www-data):
    // doctor writes its probe page with the home owner's rights, never root's
    for (const entry of ['', 'public', 'public/index.html']) chownSync(path.join(home, entry), 33, 33);
    await new NginxWebDriver(options)
      .apply({
        serviceId: 1,
        domain: 'shop.test',
        home,
        phpVersion: '8.2',
        parking: false,
        sites: [{ subdomain: '', folder: 'public' }],
        redirections: [],
      })
      .catch((error: DaemonError) => {
        throw new Error(`${error.message}: ${error.detail}\n${servers.logs()}`);
      });
    for (let attempt = 0; attempt < 200 && !(await served()); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    config = loadConfig({
      PANEL_DATA_DIR: dataDir,
      PANEL_WEB_DRIVER: 'nginx',
      PANEL_WEB_CONFIG_DIR: options.configDir,
      PANEL_HOSTING_ROOT: path.join(servers.dir, 'homes'),
      PANEL_WEB_HTTP_LISTEN: options.httpListen,
      PANEL_WEB_PHP_SOCKETS: `8.2=${runDir()}`,
      PANEL_WEB_NGINX_USER: options.nginxUser,
    });
  }, 60_000);
  afterAll(async () => {
    await servers?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const probePages = () => readdirSync(path.join(home, 'public')).filter((file) => file.startsWith('panel247-doctor-'));

  it('PHP runs the probe page asked with the site’s Host, nginx reaches the sockets, and the page is gone after', async () => {
    const found = await checks();
    expect(found['php page 8.2'], servers.logs()).toMatchObject({ ok: true });
    expect(found['php page 8.2']?.detail).toContain('http://shop.test/ through 127.0.0.1:');
    expect(found['php page 8.2']?.skipped).toBeUndefined();
    expect(found['php sockets 8.2']).toMatchObject({ ok: true });
    expect(probePages()).toEqual([]);
  });

  it('a socket folder nginx’s user cannot search: 502, named with the folder’s mode and the fix', async () => {
    chmodSync(runDir(), 0o700);
    try {
      const found = await checks();
      expect(found['php page 8.2']).toMatchObject({ ok: false });
      expect(found['php page 8.2']?.detail).toContain(
        `nginx answers 502 for shop.test: it cannot use the pool socket ${runDir()}/panel247-1.sock; its folder ${runDir()} (mode 0700,`,
      );
      expect(found['php page 8.2']?.fix).toContain(`must reach ${runDir()}`);
      expect(found['php sockets 8.2']).toMatchObject({ ok: false });
      expect(found['php sockets 8.2']?.detail).toContain(`${runDir()} (mode 700`);
      expect(probePages()).toEqual([]);
    } finally {
      chmodSync(runDir(), 0o755);
    }
    expect((await checks())['php page 8.2']).toMatchObject({ ok: true });
  });

  it('PHP-FPM stopped: 502, the pool socket does not exist, and the fix says to start PHP-FPM', async () => {
    process.kill(Number(servers.processes()['php-fpm']), 'SIGTERM');
    // the master removes its sockets as it exits
    for (let attempt = 0; attempt < 400 && existsSync(path.join(runDir(), 'panel247-1.sock')); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const found = await checks();
    expect(found['php page 8.2']).toMatchObject({ ok: false });
    expect(found['php page 8.2']?.detail).toBe(
      `nginx answers 502 for shop.test: the pool socket ${runDir()}/panel247-1.sock does not exist (PHP-FPM or the pool is not running)`,
    );
    expect(found['php page 8.2']?.fix).toContain('systemctl start php8.2-fpm');
    expect(probePages()).toEqual([]);
  });
});
