import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import path from 'node:path';
import { selfSignedCertificate } from '../test-support/self-signed-certificate.ts';
import {
  type Placement,
  type RunningDaemon,
  requireBinary,
  startForeground,
  temporaryPlacement,
  waitForPort,
} from './daemon-harness.ts';

export interface Pebble {
  /** The ACME directory (RFC 8555 §7.1.1). */
  directoryUrl: string;
  /**
   * The certificate of Pebble's own HTTPS listener: what a client must trust to reach the
   * directory (not what the certificates it issues chain to: see `root`).
   */
  listenerCaPem: string;
  /** Its management API (HTTPS with the listener's certificate): /roots/0 is the root below. */
  managementUrl: string;
  /** The root the certificates it issues chain to; new at every start of Pebble. */
  root(): Promise<string>;
  output(): string;
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

export interface PebbleOptions {
  /** Where its HTTP-01 validation connects (the test nginx's HTTP port). */
  httpPort: number;
  /** The DNS server it resolves names and looks up CAA and DNS-01 TXT records at (`127.0.0.1:PORT`). */
  dnsServer: string;
  /** Accounts must be bound to one of these (External Account Binding): key id → base64url HMAC key. */
  externalAccountKeys?: Record<string, string>;
}

/** GET over HTTPS trusting only `ca` (Pebble's management API answers with its roots). */
function fetchTrusting(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const agent = new Agent({ ca });
    request(url, { agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () =>
        response.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: HTTP ${response.statusCode}`)),
      );
    })
      .on('error', reject)
      .end();
  });
}

/**
 * Debian's Pebble (Let's Encrypt's test CA) on loopback: its listener gets a certificate made here
 * with openssl (for 127.0.0.1 and localhost), validation without Pebble's random sleeps and with
 * every good nonce accepted (the defaults reject 5 % on purpose, which a test would see as flakes).
 */
export async function startPebble(options: PebbleOptions, placement: Placement = temporaryPlacement): Promise<Pebble> {
  const binary = requireBinary('pebble', 'pebble');
  requireBinary('openssl', 'openssl');
  const dir = await placement.folder('pebble');
  const [port, managementPort] = [await placement.port('pebble.acme'), await placement.port('pebble.management')];
  const cert = path.join(dir, 'listener.pem');
  const key = path.join(dir, 'listener.key');
  await selfSignedCertificate({
    files: { cert, key },
    subject: '/CN=Pebble test listener',
    extra: ['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
  });
  const config = path.join(dir, 'pebble-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: cert,
        privateKey: key,
        httpPort: options.httpPort,
        // TLS-ALPN-01 is not used: an unused port
        tlsPort: await placement.port('pebble.tls-alpn'),
        ocspResponderURL: '',
        externalAccountBindingRequired: options.externalAccountKeys !== undefined,
        ...(options.externalAccountKeys ? { externalAccountMACKeys: options.externalAccountKeys } : {}),
      },
    }),
  );
  const daemon: RunningDaemon = startForeground(binary, ['-config', config, '-dnsserver', options.dnsServer], {
    cwd: dir,
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
  });
  try {
    await waitForPort(port);
    await waitForPort(managementPort);
  } catch (error) {
    await daemon.stop();
    throw new Error(`pebble did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  const listenerCaPem = readFileSync(cert, 'utf8');
  return {
    directoryUrl: `https://127.0.0.1:${port}/dir`,
    listenerCaPem,
    managementUrl: `https://127.0.0.1:${managementPort}`,
    root: () => fetchTrusting(`https://127.0.0.1:${managementPort}/roots/0`, listenerCaPem),
    output: () => daemon.output(),
    processes: () => ({ pebble: daemon.process.pid }),
    stop: () => daemon.stop(),
  };
}
