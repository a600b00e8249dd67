import { describe, expect, it } from 'vitest';
import { parseDelv } from '../../src/drivers/dnssec/validated-lookup.ts';
import { decideCds } from '../../src/modules/domain/cds-rules.ts';
import { dnskeyRdata, dsDigestSha256, keyTag } from '../../src/modules/domain/dnssec-keys.ts';

const ZONE = 'example.test';
/** Two made-up ECDSA P-256 public keys (64 octets each): the rules never verify signatures. */
const KEY_A = Buffer.alloc(64, 1).toString('base64');
const KEY_B = Buffer.alloc(64, 2).toString('base64');
const dnskey = (key: string) => `257 3 13 ${key}`;
const dsOf = (key: string) => {
  const rdata = dnskeyRdata(257, 3, 13, Buffer.from(key, 'base64'));
  return { keytag: keyTag(rdata), algorithm: 13, digestType: 2, digest: dsDigestSha256(ZONE, rdata) };
};
const cdsOf = (key: string) => {
  const ds = dsOf(key);
  return `${ds.keytag} 13 2 ${ds.digest.toUpperCase()}`;
};

describe('RFC 7344/8078 rules of the CDS scan', () => {
  const a = dsOf(KEY_A);
  const b = dsOf(KEY_B);
  const child = { dnskey: [dnskey(KEY_A), dnskey(KEY_B)], dnskeySigners: [a.keytag] };

  it('nothing published: nothing to do', () => {
    expect(decideCds(ZONE, [a], { ...child, cds: [], cdnskey: [] })).toEqual({ outcome: 'no_cds' });
  });

  it('a new DS set signed by the current key is taken; the same set is unchanged', () => {
    expect(decideCds(ZONE, [a], { ...child, cds: [cdsOf(KEY_A), cdsOf(KEY_B)], cdnskey: [] })).toEqual({
      outcome: 'updated',
      ds: [a, b],
    });
    expect(decideCds(ZONE, [a, b], { ...child, cds: [cdsOf(KEY_A), cdsOf(KEY_B)], cdnskey: [] })).toEqual({
      outcome: 'unchanged',
    });
  });

  it('a CDNSKEY alone becomes a SHA-256 DS', () => {
    expect(decideCds(ZONE, [a], { ...child, cds: [], cdnskey: [dnskey(KEY_B), dnskey(KEY_A)] })).toEqual({
      outcome: 'updated',
      ds: [b, a],
    });
  });

  it('refuses when no current DS key signs the DNSKEY set, or the new set would break the chain', () => {
    const stranger = { ...a, digest: 'ab'.repeat(32) };
    expect(decideCds(ZONE, [stranger], { ...child, cds: [cdsOf(KEY_B)], cdnskey: [] })).toEqual({
      outcome: 'refused',
      reason: 'dnssec.scan.not_signed_by_ds',
    });
    expect(decideCds(ZONE, [a], { ...child, cds: [cdsOf(KEY_B)], cdnskey: [] })).toEqual({
      outcome: 'refused',
      reason: 'dnssec.scan.would_break',
    });
  });

  it('the delete CDS alone removes every DS; beside other records it changes nothing', () => {
    expect(decideCds(ZONE, [a], { ...child, cds: ['0 0 0 00'], cdnskey: ['0 3 0 AA=='] })).toEqual({
      outcome: 'deleted',
    });
    expect(decideCds(ZONE, [a], { ...child, cds: ['0 0 0 00', cdsOf(KEY_A)], cdnskey: [] })).toEqual({
      outcome: 'refused',
      reason: 'dnssec.scan.mixed_delete',
    });
  });

  it('CDS and CDNSKEY that name different keys are refused', () => {
    expect(decideCds(ZONE, [a], { ...child, cds: [cdsOf(KEY_A)], cdnskey: [dnskey(KEY_B)] })).toEqual({
      outcome: 'refused',
      reason: 'dnssec.scan.cds_cdnskey_differ',
    });
  });
});

describe('delv’s answers', () => {
  it('reads a validated RRset and its signers, and trusts nothing else', () => {
    const validated = parseDelv(
      '; fully validated\nexample.test.\tIN\tCDS\t4711 13 2 ABCD EF01\nexample.test.\tIN\tRRSIG\tCDS 13 2 3600 20261210000000 20261119000000 4711 example.test. c2ln\n',
      'CDS',
    );
    expect(validated).toMatchObject({ status: 'validated', records: ['4711 13 2 ABCD EF01'], signers: [4711] });
    expect(parseDelv('; unsigned answer\nexample.test.\tIN\tCDS\t1 13 2 AB\n', 'CDS')).toMatchObject({
      status: 'insecure',
      records: [],
    });
    expect(parseDelv(';; resolution failed: SERVFAIL\n', 'CDS').status).toBe('failed');
    expect(parseDelv(';; validation failed: no valid signature found\n', 'CDS').status).toBe('bogus');
  });
});
