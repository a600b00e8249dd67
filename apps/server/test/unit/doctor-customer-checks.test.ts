import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TLSSocket } from 'node:tls';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../../scripts/test-support/self-signed-certificate.ts';
import { type AppConfig, loadConfig } from '../../src/config.ts';
import {
  customerChecks,
  dnsAddressFrom,
  ftpLogin,
  imapLogin,
  submissionLogin,
} from '../../src/drivers/doctor/customer-checks.ts';
import { phpSiteOf } from '../../src/drivers/doctor/php-page-check.ts';
import { webAddressFrom } from '../../src/drivers/web/host-request.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'p247-doctor-probes-'));
let tls: { cert: string; key: string };
const servers: { close(callback: () => void): unknown }[] = [];
const signal = new AbortController().signal;

const listen = async <T extends Server | HttpServer>(server: T): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
};

/**
 * A line server that speaks just enough of a protocol for the probes: `answer` gets each line and
 * returns the reply; the reply "STARTTLS" (after writing `tlsReply`) switches the connection to TLS.
 */
function lineServer(greeting: string, answer: (line: string) => string | { reply: string; tls: true }): Server {
  return createServer((socket: Socket) => {
    let current: Socket | TLSSocket = socket;
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let end = buffer.indexOf('\r\n');
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const reply = answer(line);
        if (typeof reply === 'string') {
          current.write(reply);
        } else {
          current.write(reply.reply);
          current.removeListener('data', onData);
          current = new TLSSocket(socket, { isServer: true, cert: tls.cert, key: tls.key });
          current.on('data', onData);
          current.on('error', () => {});
        }
        end = buffer.indexOf('\r\n');
      }
    };
    socket.on('data', onData);
    socket.on('error', () => {});
    socket.write(greeting);
  });
}

/** IMAP: STARTTLS, then LOGIN "probe@demo.test" "right" only. */
const fakeImap = () =>
  lineServer('* OK fake IMAP ready\r\n', (line) => {
    const [tag, command] = line.split(' ');
    if (command === 'STARTTLS') return { reply: `${tag} OK Begin TLS\r\n`, tls: true };
    if (command === 'LOGIN') {
      return line === `${tag} LOGIN "probe@demo.test" "right"`
        ? `${tag} OK Logged in\r\n`
        : `${tag} NO [AUTHENTICATIONFAILED] Authentication failed.\r\n`;
    }
    return `${tag} OK bye\r\n`;
  });

/** FTP without TLS (AUTH refused, as ProFTPD without mod_tls): USER probe / PASS right only. */
const fakeFtp = () => {
  let user = '';
  return lineServer('220-fake FTP\r\n220 ready\r\n', (line) => {
    const [command, argument = ''] = line.split(' ');
    if (command === 'AUTH') return '500 AUTH not understood\r\n';
    if (command === 'USER') {
      user = argument;
      return '331 Password required\r\n';
    }
    if (command === 'PASS')
      return user === 'probe' && argument === 'right' ? '230 User logged in\r\n' : '530 Login incorrect.\r\n';
    return '221 Goodbye.\r\n';
  });
};

beforeAll(async () => {
  tls = await selfSignedCertificate({ dir, name: 'probe', subject: '/CN=localhost' });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
  rmSync(dir, { recursive: true, force: true });
});

describe('doctor probes: IMAP, submission, FTP', () => {
  it('IMAP: STARTTLS, then the login is accepted; a wrong password is a failure naming the refusal, never the password', async () => {
    const port = await listen(fakeImap());
    await expect(imapLogin(`127.0.0.1:${port}`, 'probe@demo.test', 'right', signal)).resolves.toContain(
      'login of probe@demo.test accepted',
    );
    const refused = await imapLogin(`127.0.0.1:${port}`, 'probe@demo.test', 'Wrong-Secret', signal).catch(
      (error: Error) => error.message,
    );
    expect(refused).toContain('refuses the login of probe@demo.test');
    expect(refused).toContain('AUTHENTICATIONFAILED');
    expect(refused).not.toContain('Wrong-Secret');
  });

  it('submission: STARTTLS and AUTH accepted; a refused AUTH is a failure with the server’s reply', async () => {
    const smtp = new SMTPServer({
      key: tls.key,
      cert: tls.cert,
      logger: false,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'probe@demo.test' && auth.password === 'right') callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    servers.push({ close: (callback) => smtp.close(callback) });
    const port = (smtp.server.address() as AddressInfo).port;
    await expect(submissionLogin(`127.0.0.1:${port}`, 'probe@demo.test', 'right')).resolves.toContain(
      'AUTH of probe@demo.test accepted',
    );
    const refused = await submissionLogin(`127.0.0.1:${port}`, 'probe@demo.test', 'Wrong-Secret').catch(
      (error: Error) => error.message,
    );
    expect(refused).toContain('Invalid username or password');
    expect(refused).not.toContain('Wrong-Secret');
  });

  it('FTP: a multi-line greeting, AUTH TLS not offered, the login accepted; a wrong password is refused with 530', async () => {
    const port = await listen(fakeFtp());
    await expect(ftpLogin('127.0.0.1', port, 'probe', 'right', signal)).resolves.toBe(
      `127.0.0.1:${port}: the login of probe accepted`,
    );
    const refused = await ftpLogin('127.0.0.1', port, 'probe', 'Wrong-Secret', signal).catch(
      (error: Error) => error.message,
    );
    expect(refused).toBe(`127.0.0.1:${port} refuses the login of probe: "530 Login incorrect."`);
  });

  it('a daemon that does not listen is a failure', async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    servers.splice(servers.indexOf(server), 1);
    await expect(imapLogin(`127.0.0.1:${port}`, 'a@b.test', 'x', signal)).rejects.toThrow('ECONNREFUSED');
  });
});

describe('doctor probes: where to ask', () => {
  it('PowerDNS’s own settings say where it answers DNS (a wildcard asked on loopback)', () => {
    expect(dnsAddressFrom([])).toBe('127.0.0.1:53');
    expect(dnsAddressFrom([{ name: 'local-address', value: '0.0.0.0, ::' }])).toBe('127.0.0.1:53');
    expect(
      dnsAddressFrom([
        { name: 'local-address', value: '127.0.0.1' },
        { name: 'local-port', value: '5300' },
      ]),
    ).toBe('127.0.0.1:5300');
    expect(dnsAddressFrom([{ name: 'local-address', value: '127.0.0.2:5301' }])).toBe('127.0.0.2:5301');
    expect(dnsAddressFrom([{ name: 'local-address', value: '[::]:5302' }])).toBe('[::1]:5302');
  });

  it('nginx’s listen setting says where to ask for the PHP page', () => {
    expect(webAddressFrom('80')).toBe('127.0.0.1:80');
    expect(webAddressFrom('127.0.0.1:8080')).toBe('127.0.0.1:8080');
    expect(webAddressFrom('0.0.0.0:80')).toBe('127.0.0.1:80');
    expect(webAddressFrom('[::]:80')).toBe('[::1]:80');
  });

  it('a site file the web driver wrote gives its host, root and pool socket; a parking page none', () => {
    const conf = [
      'server {',
      '    listen 127.0.0.1:80;',
      '    server_name demo.test www.demo.test;',
      '    location ^~ /.well-known/acme-challenge/ {',
      '        root /var/www/panel247-acme;',
      '    }',
      '    root /srv/demo.test/public;',
      '    location ~ \\.php$ {',
      '        fastcgi_pass unix:/run/php/panel247-8.2/1.sock;',
      '    }',
      '}',
    ].join('\n');
    expect(phpSiteOf(conf)).toEqual({
      host: 'demo.test',
      root: '/srv/demo.test/public',
      socket: '/run/php/panel247-8.2/1.sock',
    });
    expect(phpSiteOf('server {\n    server_name demo.test;\n    root /srv/parking;\n}')).toBeNull();
  });
});

describe('doctor probes: the checks', () => {
  const config = (env: Record<string, string>): AppConfig => loadConfig({ PANEL_DATA_DIR: dir, ...env });
  const byName = async (env: Record<string, string>) =>
    Object.fromEntries((await customerChecks(config(env))).map((check) => [check.name, check]));

  it('with the embedded drivers every probe is skipped with why, none passed', async () => {
    const checks = await byName({});
    expect(Object.keys(checks)).toEqual(['php page 8.2', 'imap login', 'submission login', 'dns answer', 'ftp login']);
    for (const check of Object.values(checks)) {
      expect(check).toMatchObject({ ok: true, skipped: true });
      expect(check.detail).toMatch(/^skipped: the (embedded|database) .* driver has no .* to ask$/);
    }
  });

  it('with the daemons configured but no probe login, the mail and FTP probes are skipped saying which settings to set', async () => {
    const checks = await byName({
      PANEL_MAIL_DOVEADM_CONFIG: '/etc/dovecot/dovecot.conf',
      PANEL_FTP_DRIVER: 'proftpd',
    });
    expect(checks['imap login']).toMatchObject({ skipped: true });
    expect(checks['imap login']?.detail).toContain('PANEL_DOCTOR_MAIL_LOGIN');
    expect(checks['ftp login']?.detail).toContain('PANEL_DOCTOR_FTP_LOGIN');
  });

  it('logins configured: a refused one fails with its fix, and the password appears nowhere', async () => {
    const imap = await listen(fakeImap());
    const ftp = await listen(fakeFtp());
    const checks = await byName({
      PANEL_MAIL_DOVEADM_CONFIG: '/etc/dovecot/dovecot.conf',
      PANEL_DOCTOR_MAIL_LOGIN: 'probe@demo.test',
      PANEL_DOCTOR_MAIL_PASSWORD: 'Wrong-Secret',
      PANEL_DOCTOR_IMAP_ADDRESS: `127.0.0.1:${imap}`,
      PANEL_DOCTOR_SUBMISSION_ADDRESS: `127.0.0.1:${imap}`,
      PANEL_FTP_DRIVER: 'proftpd',
      PANEL_FTP_HOST: '127.0.0.1',
      PANEL_FTP_PORT: String(ftp),
      PANEL_DOCTOR_FTP_LOGIN: 'probe',
      PANEL_DOCTOR_FTP_PASSWORD: 'right',
    });
    expect(checks['imap login']).toMatchObject({ ok: false });
    expect(checks['imap login']?.fix).toContain('doveadm auth test probe@demo.test');
    // an IMAP server where submission is expected does not pass as one
    expect(checks['submission login']).toMatchObject({ ok: false });
    expect(checks['ftp login']).toMatchObject({ ok: true, detail: `127.0.0.1:${ftp}: the login of probe accepted` });
    expect(JSON.stringify(checks)).not.toContain('Wrong-Secret');
  });

  it('DNS: a PowerDNS that hosts no zone yet is skipped; no DNS answer for a hosted zone, or an API that refuses the key, fails', async () => {
    let zones: unknown[] = [];
    const api = createHttpServer((request, response) => {
      if (request.headers['x-api-key'] !== 'key') return void response.writeHead(401).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(zones));
    });
    const port = await listen(api);
    const env = { PANEL_DNS_DRIVER: 'powerdns', PANEL_POWERDNS_API_URL: `http://127.0.0.1:${port}` };
    expect((await byName({ ...env, PANEL_POWERDNS_API_KEY: 'key' }))['dns answer']).toMatchObject({
      ok: true,
      skipped: true,
      detail: 'skipped: no zone hosted yet',
    });
    // a hosted zone, and nothing answering DNS where doctor asks: a failure naming the question
    zones = [{ name: 'demo.test.' }];
    const silent = createServer();
    const closed = await listen(silent);
    await new Promise((resolve) => silent.close(resolve));
    servers.splice(servers.indexOf(silent), 1);
    const unanswered = (
      await byName({ ...env, PANEL_POWERDNS_API_KEY: 'key', PANEL_DOCTOR_DNS_ADDRESS: `127.0.0.1:${closed}` })
    )['dns answer'];
    expect(unanswered).toMatchObject({ ok: false });
    expect(unanswered?.detail).toMatch(new RegExp(`^SOA demo\\.test @127\\.0\\.0\\.1:${closed}: `));
    expect(unanswered?.fix).toContain('npm run panel -- dns sync');
    zones = [];
    const refused = (await byName({ ...env, PANEL_POWERDNS_API_KEY: 'nope' }))['dns answer'];
    expect(refused).toMatchObject({ ok: false, detail: 'the API answers HTTP 401 for zones' });
    expect(refused?.fix).toContain('local-address');
  });

  describe('a PHP page through nginx', () => {
    const configDir = path.join(dir, 'web');
    const root = path.join(dir, 'homes', 'demo.test');
    const socketFolder = path.join(dir, 'run', 'php-8.2');
    let status = 200;
    let asked: { host?: string; url?: string; files: string[] } = { files: [] };
    let port = 0;

    beforeAll(async () => {
      mkdirSync(root, { recursive: true });
      // the home is its service's (here the shared hosting user's): doctor writes its probe page
      // with the home owner's rights, never root's, so that user must reach it
      for (const folder of [dir, path.join(dir, 'homes')]) chmodSync(folder, 0o755);
      if (process.getuid?.() === 0) chownSync(root, 33, 33);
      mkdirSync(path.join(configDir, 'live', '1', 'sites'), { recursive: true });
      writeFileSync(
        path.join(configDir, 'live', '1', 'sites', 'demo.test.conf'),
        `server {\n    server_name demo.test www.demo.test;\n    root ${root};\n    location ~ \\.php$ {\n        fastcgi_pass unix:${socketFolder}/1.sock;\n    }\n}\n`,
      );
      // a stand-in for nginx + PHP: runs the probe's one echo, or answers the status set
      port = await listen(
        createHttpServer((request, response) => {
          asked = { host: request.headers.host, url: request.url, files: readdirSync(root) };
          if (status !== 200) return void response.writeHead(status).end();
          const source = readFileSync(path.join(root, String(request.url)), 'utf8');
          const [, first = '', second = ''] = /echo '(.*)', '(.*)';/.exec(source) ?? [];
          response.writeHead(200).end(`${first}${second}`);
        }),
      );
    });

    const env = () => ({
      PANEL_WEB_DRIVER: 'nginx',
      PANEL_WEB_CONFIG_DIR: configDir,
      PANEL_HOSTING_ROOT: path.join(dir, 'homes'),
      PANEL_WEB_PHP_SOCKETS: `8.2=${socketFolder}`,
      PANEL_DOCTOR_WEB_ADDRESS: `127.0.0.1:${port}`,
    });

    it('PHP runs the probe page asked with the site’s Host; the page is gone afterwards', async () => {
      status = 200;
      const check = (await byName(env()))['php page 8.2'];
      expect(check).toMatchObject({ ok: true });
      expect(check?.detail).toContain('PHP 8.2 ran the probe page');
      expect(asked.host).toBe('demo.test');
      expect(asked.url).toMatch(/^\/panel247-doctor-[0-9a-f]{16}\.php$/);
      expect(asked.files).toEqual([String(asked.url).slice(1)]);
      expect(readdirSync(root)).toEqual([]);
    });

    it('a 502 is a failure naming the missing pool socket, and the fix names the folder nginx must reach', async () => {
      status = 502;
      const check = (await byName(env()))['php page 8.2'];
      expect(check).toMatchObject({ ok: false });
      expect(check?.detail).toBe(
        `nginx answers 502 for demo.test: the pool socket ${socketFolder}/1.sock does not exist (PHP-FPM or the pool is not running)`,
      );
      expect(check?.fix).toContain('systemctl start php8.2-fpm');
      expect(check?.fix).toContain(socketFolder);
      expect(readdirSync(root)).toEqual([]);
    });

    it.runIf(process.getuid?.() === 0)(
      'a site root the customer replaced by a link to root’s folder: the probe is not written there',
      async () => {
        status = 200;
        const site = path.join(root, 'public');
        const elsewhere = mkdtempSync(path.join(dir, 'root-only-'));
        chmodSync(elsewhere, 0o755);
        symlinkSync(elsewhere, site);
        const conf = path.join(configDir, 'live', '1', 'sites', 'demo.test.conf');
        const before = readFileSync(conf, 'utf8');
        writeFileSync(conf, before.replace(`root ${root};`, `root ${site};`));
        try {
          const check = (await byName(env()))['php page 8.2'];
          // written with the home owner's rights, which root's folder refuses (as root it was written there)
          expect(check).toMatchObject({ ok: false });
          expect(check?.detail).toMatch(/Permission denied/);
          expect(readdirSync(elsewhere)).toEqual([]);
        } finally {
          writeFileSync(conf, before);
          rmSync(site);
        }
      },
    );

    it('no site uses the version yet: skipped', async () => {
      const check = (await byName({ ...env(), PANEL_WEB_CONFIG_DIR: path.join(dir, 'empty') }))['php page 8.2'];
      expect(check).toMatchObject({ ok: true, skipped: true, detail: 'skipped: no site uses PHP 8.2 yet' });
    });
  });
});
