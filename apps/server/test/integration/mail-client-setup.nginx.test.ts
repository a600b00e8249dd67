import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  type RunningDaemon,
  requireBinary,
  waitForPort,
  workDir,
} from '../../../../scripts/daemons/daemon-harness.ts';
import { fillDeployTemplate } from '../../../../scripts/daemons/deploy-template.ts';
import { readOr, startNginx, webIdentity } from '../../../../scripts/daemons/nginx-php.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

const run = promisify(execFile);
const SSL_HOST = 'imaps.proveedor.test';

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
}

/**
 * The operator's kit end to end: deploy/nginx's nginx.conf with the mail client set-up server
 * block in it, in front of the panel on loopback, asked as Thunderbird and Outlook ask; every
 * document is checked by a real XML parser (libxml2's xmllint), not by the code that wrote it.
 */
describe('mail client set-up through a real nginx', () => {
  let t: TestApp;
  let dir: string;
  let nginx: RunningDaemon;
  let nginxPort: number;
  let errorLog: string;
  let xmllint: string;

  beforeAll(async () => {
    xmllint = requireBinary('xmllint', 'libxml2-utils');
    t = await buildTestApp('sqlite');
    const admin = new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
    await admin.ensureBrand({ slug: 'nginx-brand', company: 'Proveedor Nginx', sslHost: SSL_HOST });
    await buildAccount(t.database.db, {
      brandSlug: 'nginx-brand',
      domainName: 'correo-nginx.test',
      resources: { 'correo-nginx.test': { hasMail: true, hasService: true } },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const panelPort = (t.app.server.address() as AddressInfo).port;

    dir = await workDir('mail-setup-nginx');
    chmodSync(dir, 0o755);
    const live = path.join(dir, 'live');
    mkdirSync(path.join(live, 'mail-client-setup'), { recursive: true });
    mkdirSync(path.join(dir, 'temp'), { recursive: true });
    nginxPort = await freePort();
    const web = webIdentity();
    errorLog = path.join(dir, 'error.log');
    const conf = path.join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      fillDeployTemplate('nginx/nginx.conf.template', {
        USER: web.user || 'nobody',
        GROUP: web.group || 'nogroup',
        PID_FILE: path.join(dir, 'nginx.pid'),
        ERROR_LOG: errorLog,
        ACCESS_LOG: path.join(dir, 'access.log'),
        MIME_TYPES: '/etc/nginx/mime.types',
        TEMP_DIR: path.join(dir, 'temp'),
        HTTP_LISTEN: `127.0.0.1:${nginxPort}`,
        HTTPS_LISTEN: `127.0.0.1:${await freePort()}`,
        LIVE_DIR: live,
      }),
    );
    // the nginx.conf template includes <live>/*/nginx.conf: the set-up block goes in as one of them
    writeFileSync(
      path.join(live, 'mail-client-setup', 'nginx.conf'),
      fillDeployTemplate('nginx/mail-client-setup.conf.template', {
        LISTEN: `127.0.0.1:${nginxPort}`,
        PANEL_ADDRESS: `127.0.0.1:${panelPort}`,
      }),
    );
    nginx = startNginx(dir, conf, errorLog);
    try {
      await waitForPort(nginxPort);
    } catch (error) {
      throw new Error(`nginx did not start: ${(error as Error).message}\n${nginx.output()}\n${readOr(errorLog)}`);
    }
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ask = (method: 'GET' | 'POST', host: string, urlPath: string, body?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: nginxPort,
          method,
          path: urlPath,
          agent: false,
          headers: { host, ...(body === undefined ? {} : { 'content-type': 'text/xml; charset=utf-8' }) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body: text }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  /** xmllint's verdict on a document (it exits non-zero on anything not well-formed), and an XPath's value. */
  const lint = async (xml: string, xpath?: string): Promise<string> => {
    const file = path.join(dir, `document-${Math.random().toString(36).slice(2)}.xml`);
    writeFileSync(file, xml);
    try {
      const args = ['--noout', '--nonet', file];
      await run(xmllint, args);
      if (!xpath) return '';
      const { stdout } = await run(xmllint, ['--nonet', '--xpath', xpath, file]);
      return stdout.trim();
    } finally {
      rmSync(file, { force: true });
    }
  };

  it('serves Thunderbird’s autoconfig on autoconfig.<domain>, well-formed, with the brand’s hosts', async () => {
    const answer = await ask(
      'GET',
      'autoconfig.correo-nginx.test',
      '/mail/config-v1.1.xml?emailaddress=alguien%40correo-nginx.test',
    );
    expect(answer.status, readOr(errorLog)).toBe(200);
    expect(answer.type).toBe('application/xml; charset=utf-8');
    expect(await lint(answer.body, 'string(/clientConfig/emailProvider/incomingServer[1]/hostname)')).toBe(SSL_HOST);
    expect(await lint(answer.body, 'string(/clientConfig/emailProvider/incomingServer[1]/port)')).toBe('993');
    expect(await lint(answer.body, 'string(/clientConfig/emailProvider/outgoingServer[1]/hostname)')).toBe(SSL_HOST);
    expect(await lint(answer.body, 'string(/clientConfig/emailProvider/incomingServer[2]/hostname)')).toBe(
      'imap.correo-nginx.test',
    );
    expect(await lint(answer.body, 'string(/clientConfig/emailProvider/displayName)')).toBe('Proveedor Nginx');
    // the host alone names the domain too (no address sent)
    const byHost = await ask('GET', 'autoconfig.correo-nginx.test', '/mail/config-v1.1.xml');
    expect(byHost.status).toBe(200);
    expect(byHost.body).toBe(answer.body);
    // the .well-known path a domain's own host may forward
    const wellKnown = await ask(
      'GET',
      'autoconfig.correo-nginx.test',
      '/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=alguien%40correo-nginx.test',
    );
    expect(wellKnown.body).toBe(answer.body);
  });

  it('serves Outlook’s autodiscover on autodiscover.<domain>, whatever the path’s case', async () => {
    const request = `<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006">
  <Request>
    <EMailAddress>alguien@correo-nginx.test</EMailAddress>
    <AcceptableResponseSchema>http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a</AcceptableResponseSchema>
  </Request>
</Autodiscover>`;
    for (const urlPath of [
      '/autodiscover/autodiscover.xml',
      '/Autodiscover/Autodiscover.xml',
      '/AutoDiscover/AutoDiscover.xml',
    ]) {
      const answer = await ask('POST', 'autodiscover.correo-nginx.test', urlPath, request);
      expect(answer.status, urlPath).toBe(200);
      const server = "string(//*[local-name()='Protocol'][*[local-name()='Type']='IMAP']/*[local-name()='Server'])";
      expect(await lint(answer.body, server)).toBe(SSL_HOST);
      const login = "string(//*[local-name()='Protocol'][1]/*[local-name()='LoginName'])";
      expect(await lint(answer.body, login)).toBe('alguien@correo-nginx.test');
    }
  });

  it('answers nothing else: unknown domains, other paths, other names and methods', async () => {
    expect((await ask('GET', 'autoconfig.nunca-visto.test', '/mail/config-v1.1.xml')).status).toBe(404);
    expect(
      (await ask('GET', 'autoconfig.correo-nginx.test', '/mail/config-v1.1.xml?emailaddress=x%40nunca-visto.test'))
        .status,
    ).toBe(404);
    // the panel's API and pages are not reachable through these names
    expect((await ask('GET', 'autoconfig.correo-nginx.test', '/p247/health/')).status).toBe(404);
    expect((await ask('GET', 'autodiscover.correo-nginx.test', '/')).status).toBe(404);
    expect((await ask('GET', 'autodiscover.correo-nginx.test', '/autodiscover/autodiscover.xml')).status).toBe(403);
    // a name that is neither gets the default server's silence (444: the connection is closed)
    await expect(ask('GET', 'www.correo-nginx.test', '/mail/config-v1.1.xml')).rejects.toThrow();
  });
});
