import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { DaemonError } from '../../errors.ts';

/** Why a zone transfer could not be read: the name server named, or the transfer itself. */
export class ZoneTransferError extends Error {
  constructor(
    readonly reason: 'unresolved' | 'private' | 'failed' | 'too_large',
    detail: string,
  ) {
    super(detail);
  }
}

/** Reads a zone from another name server (AXFR) as master-file text. */
export interface ZoneTransfer {
  read(zone: string, server: NameServer, options: { allowPrivate: boolean; maxBytes: number }): Promise<string>;
}

/** A name server to read from: a host name or an IP address, and its port. */
export interface NameServer {
  host: string;
  port: number;
}

/**
 * Addresses a customer may not make the panel's host connect to: its own loopback and networks
 * (the provider's DNS server, databases…), link-local, multicast and reserved ranges.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/**
 * AXFR with `dig` (bind9-dnsutils), run with an argument array, never a shell. The server's name
 * is resolved here and dig is given the address, so the address checked is the one dig connects
 * to (no second lookup that could answer differently).
 */
export class DigZoneTransfer implements ZoneTransfer {
  constructor(private readonly options: { digPath?: string; timeoutMs?: number } = {}) {}

  async read(zone: string, server: NameServer, options: { allowPrivate: boolean; maxBytes: number }): Promise<string> {
    const address = await this.address(server.host, options.allowPrivate);
    const args = [
      '+noall',
      '+answer',
      '+time=10',
      '+tries=1',
      '-p',
      String(server.port),
      `@${address}`,
      `${zone}.`,
      'AXFR',
    ];
    const text = await new Promise<string>((resolve, reject) => {
      execFile(
        this.options.digPath ?? 'dig',
        args,
        { timeout: this.options.timeoutMs ?? 60_000, maxBuffer: options.maxBytes, env: { PATH: process.env.PATH } },
        (error, stdout) => {
          if (error && /maxBuffer/i.test(error.message)) reject(new ZoneTransferError('too_large', error.message));
          else if (error && !stdout) reject(new DaemonError('dns.import.axfr_failed', error.message));
          else resolve(stdout);
        },
      );
    });
    // A refused or failed transfer prints only comments ("; Transfer failed."): no SOA came.
    if (!/^\S+\s+\d+\s+IN\s+SOA\s/m.test(text)) {
      throw new ZoneTransferError('failed', text.trim().split('\n')[0] ?? 'no answer');
    }
    return text;
  }

  private async address(server: string, allowPrivate: boolean): Promise<string> {
    let address = server;
    if (!isIP(server)) {
      try {
        address = (await lookup(server, { verbatim: true })).address;
      } catch (error) {
        throw new ZoneTransferError('unresolved', (error as Error).message);
      }
    }
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (!allowPrivate && NOT_PUBLIC.check(address, family)) throw new ZoneTransferError('private', address);
    return address;
  }
}
