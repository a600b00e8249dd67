import { createHash } from 'node:crypto';

/** DNSKEY RDATA: flags (2 octets), protocol (1), algorithm (1), public key. */
export function dnskeyRdata(flags: number, protocol: number, algorithm: number, key: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(flags, 0);
  head.writeUInt8(protocol, 2);
  head.writeUInt8(algorithm, 3);
  return Buffer.concat([head, key]);
}

/** RFC 4034 appendix B key tag (algorithm 1, RSA/MD5, uses its own rule and is refused earlier). */
export function keyTag(rdata: Buffer): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? (rdata[i] as number) : (rdata[i] as number) << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

/** An owner name in wire format: lower-cased labels, each prefixed by its length, then the root. */
export function nameWire(name: string): Buffer {
  const labels = name.replace(/\.$/, '').toLowerCase().split('.');
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}

/** RFC 4509 DS digest (SHA-256) of a DNSKEY: sha256(owner name | DNSKEY RDATA). */
export function dsDigestSha256(owner: string, rdata: Buffer): string {
  return createHash('sha256')
    .update(Buffer.concat([nameWire(owner), rdata]))
    .digest('hex');
}

/** Decodes a base64 public key strictly (whitespace allowed); undefined when it is not base64. */
export function decodePublicKey(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined;
  const key = Buffer.from(compact, 'base64');
  return key.length >= 16 ? key : undefined;
}
