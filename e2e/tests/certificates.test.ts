import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { Subdomain } from '@panel247/contract/hosting';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webIdentity } from '../../scripts/daemons/nginx-php';
import { type Pebble, startPebble } from '../../scripts/daemons/pebble';
import { type PowerDns, startPowerDns } from '../../scripts/daemons/powerdns';
import { startWebServers, type WebServers } from '../../scripts/daemons/web';
import { seriousViolations } from '../support/axe';
import { chromiumAvailable } from '../support/browser';
import { loginNoCaptcha } from '../support/panel';
import { insideViewport, PHONE, pageWidth } from '../support/phone';
import { pageSuite } from '../support/suite';
import { apiFromPage, dialog, waitToast } from '../support/ui';

const SITES = '[data-testid="hosting-site-list"] tbody tr[data-name]';
const DOMAIN = 'demo.test';

/** The serial of the certificate nginx presents for `host`, trusting only `ca` (Pebble's root). */
function servedSerial(port: number, host: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      { host: '127.0.0.1', port, path: '/', servername: host, headers: { host }, ca, agent: false },
      (response) => {
        const socket = response.socket as TLSSocket;
        const serial = new X509Certificate(socket.getPeerCertificate(false).raw).serialNumber;
        response.resume();
        response.on('end', () => resolve(serial));
      },
    );
    request.on('error', reject);
  });
}

/** A by-version setting as its variable writes it: `8.2=/path,8.3=/other`. */
function pairs(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([version, value]) => `${version}=${value}`)
    .join(',');
}

/** The panel's settings for these daemons, as environment variables of its server. */
function panelEnv(servers: WebServers, pdns: PowerDns, pebble: Pebble, homes: string, caFile: string) {
  const options = servers.driverOptions;
  const web = webIdentity();
  const php = options.php['8.2'];
  return {
    PANEL_WEB_DRIVER: 'nginx',
    PANEL_WEB_CONFIG_DIR: options.configDir,
    PANEL_WEB_LOG_DIR: options.logDir,
    PANEL_WEB_TEMPLATES_DIR: options.templatesDir,
    PANEL_WEB_HTTP_LISTEN: options.httpListen,
    PANEL_WEB_HTTPS_LISTEN: options.httpsListen,
    PANEL_WEB_PHP_SOCKETS: pairs(options.phpSockets),
    PANEL_WEB_PHP_BINARIES: `8.2=${php?.binary}`,
    PANEL_WEB_PHP_CONFIGS: `8.2=${php?.config}`,
    PANEL_WEB_PHP_PID_FILES: `8.2=${php?.pidFile}`,
    PANEL_WEB_PHP_USER: web.asRoot ? web.user : options.phpUser,
    PANEL_WEB_PHP_GROUP: web.asRoot ? web.group : options.phpGroup,
    PANEL_WEB_NGINX_USER: web.asRoot ? web.user : options.nginxUser,
    PANEL_WEB_NGINX_BINARY: options.nginxBinary,
    PANEL_WEB_NGINX_PREFIX: options.nginxPrefix,
    PANEL_WEB_NGINX_CONF: options.nginxConf,
    PANEL_WEB_NGINX_ERROR_LOG: options.nginxErrorLog,
    PANEL_WEB_NGINX_PID_FILE: options.nginxPidFile,
    PANEL_WEB_ACME_CHALLENGE_DIR: options.acmeChallengeDir,
    PANEL_HOSTING_ROOT: homes,
    ...(web.asRoot ? { PANEL_HOSTING_UID: String(web.uid), PANEL_HOSTING_GID: String(web.gid) } : {}),
    PANEL_DNS_DRIVER: 'powerdns',
    PANEL_POWERDNS_API_URL: pdns.apiUrl,
    PANEL_POWERDNS_API_KEY: pdns.apiKey,
    PANEL_DNS_WEB_IPV4: '127.0.0.1',
    // no AAAA: nginx listens on 127.0.0.1 alone
    PANEL_DNS_DEFAULT_RECORDS: JSON.stringify([
      { zona: '', type: 'NS', value: '{ns}', eliminable: false },
      { zona: '', type: 'A', value: '{web_ipv4}' },
      { zona: 'www', type: 'CNAME', value: '{domain}' },
    ]),
    PANEL_ACME_DIRECTORY_URL: pebble.directoryUrl,
    PANEL_ACME_DIRECTORY_CA_FILE: caFile,
    PANEL_ACME_EMAIL: 'certs@provider.test',
    PANEL_ACME_RESOLVERS: `127.0.0.1:${pdns.dnsPort}`,
    PANEL_ACME_WEB_ADDRESSES: '127.0.0.1',
    // a CA that misbehaves fails the order at once instead of after the client's retries
    PANEL_ACME_RETRY_ATTEMPTS: '1',
    PANEL_ACME_RETRY_DELAY_SECONDS: '0',
  };
}

describe.skipIf(!chromiumAvailable())(
  'automatic SSL of a site, in Chromium, against Pebble, nginx and PowerDNS',
  () => {
    let pdns: PowerDns;
    let servers: WebServers;
    let pebble: Pebble;
    // filled before the panel starts: the suite reads it in its own hook, which runs after this one
    const env: Record<string, string> = {};
    beforeAll(async () => {
      pdns = await startPowerDns();
      servers = await startWebServers();
      pebble = await startPebble({ httpPort: servers.httpPort, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
      const caFile = path.join(servers.dir, 'pebble-listener.pem');
      writeFileSync(caFile, pebble.listenerCaPem);
      const homes = path.join(servers.dir, 'homes');
      mkdirSync(homes, { recursive: true, mode: 0o755 });
      chmodSync(homes, 0o755);
      Object.assign(env, panelEnv(servers, pdns, pebble, homes, caFile));
    }, 120_000);
    afterAll(async () => {
      await pebble?.stop();
      await servers?.stop();
      await pdns?.stop();
    });

    const suite = pageSuite({ captcha: 'none', env }, (page, server) => loginNoCaptcha(page, server.url));
    let page: Page;
    let sitesUrl: string;
    let serviceId: string;

    beforeAll(async () => {
      page = suite.page;
      await page.getByTestId('side-menu').getByTestId('menu-item-hosting').click();
      await page.waitForURL(/\/admin\/\d+\/service\/$/);
      serviceId = /\/admin\/(\d+)\//.exec(page.url())?.[1] as string;
      sitesUrl = `${suite.server.url}/admin/${serviceId}/service/subdomain/`;
      // the zone and its records reach PowerDNS on first use
      await apiFromPage(page, `service/${serviceId}/dns/list/`);
    });

    async function mainSite(): Promise<Subdomain> {
      const answer = await apiFromPage<{ data: { subdomains: Subdomain[] } }>(
        page,
        `service/${serviceId}/subdomain/list/`,
      );
      return answer.data.subdomains.find((site) => site.subdominio === '') as Subdomain;
    }

    it('switches the main site to automatic, follows the steps, and nginx then presents the new certificate', async () => {
      await page.goto(sitesUrl);
      const row = page.locator(`${SITES}[data-name="${DOMAIN}"]`);
      await row.waitFor();
      expect(await row.getByTestId('hosting-site-ssl').textContent()).toBe('Sin SSL');
      expect(await seriousViolations(page)).toEqual([]);

      await row.getByTestId('hosting-site-edit').click();
      const edit = dialog(page, 'hosting-site-modal');
      await edit.getByTestId('hosting-site-form').waitFor();
      // keyboard: the SSL choices are radios, reached and chosen without a mouse
      await edit.getByTestId('hosting-site-ssl-off').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await edit.getByTestId('hosting-site-ssl-auto').isChecked()).toBe(true);
      await edit.getByTestId('hosting-site-acme').waitFor();
      expect(await edit.getByTestId('hosting-site-challenge-http').isChecked()).toBe(true);
      expect(await edit.getByTestId('hosting-site-wildcard').isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await edit.getByTestId('hosting-site-submit').click();
      await waitToast(page, 'Pidiendo el certificado: la página mostrará cada paso');

      // the order's steps as the dialog shows them, until it ends
      const progress = edit.getByTestId('hosting-acme-progress');
      await progress.waitFor();
      const seen: string[] = [];
      for (;;) {
        const state = (await progress.getAttribute('data-state')) ?? '';
        if (seen.at(-1) !== state) seen.push(state);
        if (state === 'installed' || state === 'failed') break;
        await page.waitForTimeout(50);
      }
      expect(seen.at(-1)).toBe('installed');
      expect(seen.every((state) => ['queued', 'ordered', 'validating', 'issued', 'installed'].includes(state))).toBe(
        true,
      );
      expect(await edit.getByTestId('hosting-acme-status').textContent()).toMatch(
        /^Certificado instalado\. Caduca el .+ y se renueva solo\.$/,
      );
      for (const step of ['ordered', 'validating', 'issued', 'installed']) {
        expect(await edit.getByTestId(`hosting-acme-step-${step}`).getAttribute('data-done')).toBe('true');
      }
      expect(await seriousViolations(page)).toEqual([]);
      await edit.getByTestId('hosting-acme-close').click();
      await edit.waitFor({ state: 'detached' });

      // the row: the state dot and the expiry
      const acme = row.getByTestId('hosting-site-acme');
      await acme.waitFor();
      expect(await acme.getAttribute('data-state')).toBe('installed');
      expect(await acme.textContent()).toMatch(/^Automático · instaladoCaduca el /);
      expect(await seriousViolations(page)).toEqual([]);

      // nginx presents the certificate the panel installed, which chains to Pebble's root
      const site = await mainSite();
      expect(site.ssl.enabled).toBe(true);
      const installed = new X509Certificate(site.ssl.cert.cert);
      expect(installed.subjectAltName).toContain(`DNS:${DOMAIN}`);
      expect(await servedSerial(servers.httpsPort, DOMAIN, await pebble.root())).toBe(installed.serialNumber);
    });

    it('on a phone, the row shows the state and the dialog its choices inside the screen', async () => {
      await page.setViewportSize(PHONE);
      try {
        await page.goto(sitesUrl);
        // phones get the rows as stacked cards, not a table
        const row = page.locator(`[data-testid="hosting-site-list"] [data-name="${DOMAIN}"]`);
        await row.waitFor();
        expect(await page.getByTestId('hosting-site-list').getAttribute('data-layout')).toBe('stacked');
        const acme = row.getByTestId('hosting-site-acme');
        await acme.waitFor();
        const box = await insideViewport(acme);
        expect(box.visible).toBe(true);
        expect(box.right).toBeLessThanOrEqual(PHONE.width);
        expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
        await row.getByTestId('hosting-site-edit').click();
        const edit = dialog(page, 'hosting-site-modal');
        await edit.getByTestId('hosting-site-acme').waitFor();
        expect(await edit.getByTestId('hosting-site-ssl-auto').isChecked()).toBe(true);
        for (const id of ['hosting-site-ssl-auto', 'hosting-site-challenge-dns', 'hosting-acme-progress']) {
          const inside = await insideViewport(edit.getByTestId(id));
          expect(inside.visible, id).toBe(true);
          expect(inside.left, id).toBeGreaterThanOrEqual(0);
          expect(inside.right, id).toBeLessThanOrEqual(PHONE.width);
        }
        expect(await seriousViolations(page)).toEqual([]);
        await edit.getByRole('button', { name: 'Cancelar' }).click();
        await edit.waitFor({ state: 'detached' });
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    });
  },
);
