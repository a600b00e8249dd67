import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  execFileAsync,
  freePort,
  type RunningDaemon,
  requireBinary,
  waitForPort,
  workDir,
} from '../../../../scripts/daemons/daemon-harness.ts';
import { fillDeployTemplate } from '../../../../scripts/daemons/deploy-template.ts';
import { nginxArgs, nginxBinary, readOr, startNginx, webIdentity } from '../../../../scripts/daemons/nginx-php.ts';
import { writeNginxAround } from '../../../../scripts/daemons/nginx-site.ts';
import { selfSignedCertificate } from '../../../../scripts/test-support/self-signed-certificate.ts';

const HOST = 'panel.proveedor.test';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the stand-in for the panel saw of a request. */
interface Seen {
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
}

/**
 * deploy/nginx/panel-proxy.conf.template in a real nginx (checked by `nginx -t` first) with a
 * self-signed certificate, in front of a stand-in for the panel that answers with what it
 * received: the redirection to HTTPS, ACME's challenges, the API and the web app with the headers
 * PANEL_TRUST_PROXY reads, and the realtime WebSocket's upgrade.
 */
describe('the panel’s TLS proxy (deploy/nginx/panel-proxy.conf.template) in a real nginx', () => {
  let dir: string;
  let panel: http.Server;
  let nginx: RunningDaemon;
  let httpPort: number;
  let httpsPort: number;
  let certificate: string;
  let errorLog: string;

  beforeAll(async () => {
    requireBinary('openssl', 'openssl');
    nginxBinary();
    dir = await workDir('panel-proxy');
    chmodSync(dir, 0o755);
    panel = http.createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ url: request.url, headers: request.headers } satisfies Seen));
    });
    // the realtime route's WebSocket: the stand-in accepts the upgrade and says what it received
    panel.on('upgrade', (request, socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.end(JSON.stringify({ url: request.url, headers: request.headers } satisfies Seen));
    });
    await new Promise<void>((resolve) => panel.listen(0, '127.0.0.1', resolve));
    const panelPort = (panel.address() as AddressInfo).port;

    certificate = path.join(dir, 'fullchain.pem');
    const key = path.join(dir, 'key.pem');
    await selfSignedCertificate({
      files: { cert: certificate, key },
      subject: `/CN=${HOST}`,
      rsa: true,
      days: 2,
      extra: ['-addext', `subjectAltName=DNS:${HOST}`],
    });
    const acmeRoot = path.join(dir, 'acme');
    mkdirSync(path.join(acmeRoot, '.well-known', 'acme-challenge'), { recursive: true });
    writeFileSync(path.join(acmeRoot, '.well-known', 'acme-challenge', 'token-1'), 'token-1.thumbprint');
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    writeFileSync(
      path.join(dir, 'panel247.conf'),
      fillDeployTemplate('nginx/panel-proxy.conf.template', {
        SERVER_NAME: HOST,
        HTTP_LISTEN: `127.0.0.1:${httpPort}`,
        HTTPS_LISTEN: `127.0.0.1:${httpsPort}`,
        CERTIFICATE: certificate,
        CERTIFICATE_KEY: key,
        ACME_ROOT: acmeRoot,
        PANEL_ADDRESS: `127.0.0.1:${panelPort}`,
      }),
    );
    // an http {} of this run's own around the kit's server blocks, as Debian's nginx.conf includes sites
    const written = writeNginxAround(dir, path.join(dir, 'panel247.conf'), webIdentity());
    const config = written.config;
    errorLog = written.errorLog;
    const checked = await execFileAsync(nginxBinary(), [...nginxArgs(dir, config, errorLog), '-t']);
    expect(checked.stderr).toContain('syntax is ok');
    nginx = startNginx(dir, config, errorLog);
    try {
      await waitForPort(httpsPort);
      await waitForPort(httpPort);
    } catch (error) {
      throw new Error(`nginx did not start: ${(error as Error).message}\n${nginx.output()}\n${readOr(errorLog)}`);
    }
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => panel?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ask = (scheme: 'http' | 'https', urlPath: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const options = {
        host: '127.0.0.1',
        port: scheme === 'http' ? httpPort : httpsPort,
        path: urlPath,
        agent: false,
        headers: { host: HOST },
      };
      const done = (response: http.IncomingMessage) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      };
      const request =
        scheme === 'http'
          ? http.request(options, done)
          : // the certificate is checked for the panel's name, as a browser would
            https.request({ ...options, servername: HOST, ca: readFileSync(certificate) }, done);
      request.on('error', reject);
      request.end();
    });

  it('sends plain HTTP to HTTPS, keeping the path and query', async () => {
    const answer = await ask('http', '/p247/session/?next=%2Fmail');
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`https://${HOST}/p247/session/?next=%2Fmail`);
    expect((await ask('http', '/')).headers.location).toBe(`https://${HOST}/`);
  });

  it('answers ACME’s HTTP-01 challenge over plain HTTP from ACME_ROOT', async () => {
    const answer = await ask('http', '/.well-known/acme-challenge/token-1');
    expect(answer).toMatchObject({ status: 200, body: 'token-1.thumbprint' });
    expect((await ask('http', '/.well-known/acme-challenge/missing')).status).toBe(404);
  });

  it('hands the API and the web app to the panel over TLS, with the headers a trusted proxy gives', async () => {
    for (const urlPath of ['/p247/session/', '/', '/mail/example.test']) {
      const answer = await ask('https', urlPath);
      expect(answer.status).toBe(200);
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
      const seen = JSON.parse(answer.body) as Seen;
      expect(seen.url).toBe(urlPath);
      expect(seen.headers).toMatchObject({
        host: HOST,
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-host': HOST,
      });
      // an ordinary request asks for no upgrade
      expect(seen.headers.upgrade).toBeUndefined();
      expect(seen.headers.connection ?? '').not.toMatch(/upgrade/i);
    }
  });

  it('passes the realtime WebSocket’s upgrade through to the panel', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect(
        { host: '127.0.0.1', port: httpsPort, servername: HOST, ca: readFileSync(certificate) },
        () => {
          socket.write(
            [
              'GET /p247/realtime/ HTTP/1.1',
              `Host: ${HOST}`,
              'Connection: Upgrade',
              'Upgrade: websocket',
              'Sec-WebSocket-Version: 13',
              'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
              '',
              '',
            ].join('\r\n'),
          );
        },
      );
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (received += chunk));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 101 /);
    const seen = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Seen;
    expect(seen.url).toBe('/p247/realtime/');
    expect(seen.headers).toMatchObject({ upgrade: 'websocket', host: HOST, 'x-forwarded-proto': 'https' });
    expect(seen.headers.connection).toMatch(/upgrade/i);
  });
});
