import { DNSSEC_ALGORITHMS, DNSSEC_DIGEST_LENGTHS } from '@panel247/contract/domain-rules';
import { decodePublicKey, dnskeyRdata, dsDigestSha256, keyTag } from './dnssec-keys.ts';

/** A DS as the registry holds it (digest in lower-case hex). */
export interface Ds {
  keytag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

/** What the child zone publishes, each RRset already validated from the trust anchor. */
export interface ChildKeys {
  cds: string[];
  cdnskey: string[];
  dnskey: string[];
  /** Key tags of the RRSIGs over the DNSKEY RRset. */
  dnskeySigners: number[];
}

export type CdsDecision =
  | { outcome: 'no_cds' }
  | { outcome: 'unchanged' }
  | { outcome: 'deleted' }
  | { outcome: 'updated'; ds: Ds[] }
  | { outcome: 'refused'; reason: string };

interface Dnskey {
  flags: number;
  protocol: number;
  algorithm: number;
  rdata: Buffer;
  keytag: number;
}

function parseDnskey(text: string): Dnskey | undefined {
  const [flags, protocol, algorithm, ...key] = text.trim().split(/\s+/);
  const decoded = decodePublicKey(key.join(''));
  if (!decoded || Number.isNaN(Number(flags))) return undefined;
  const rdata = dnskeyRdata(Number(flags), Number(protocol), Number(algorithm), decoded);
  return {
    flags: Number(flags),
    protocol: Number(protocol),
    algorithm: Number(algorithm),
    rdata,
    keytag: keyTag(rdata),
  };
}

function parseDs(text: string): Ds | undefined {
  const [keytag, algorithm, digestType, ...digest] = text.trim().split(/\s+/);
  const ds = {
    keytag: Number(keytag),
    algorithm: Number(algorithm),
    digestType: Number(digestType),
    digest: digest.join('').toLowerCase(),
  };
  return Number.isInteger(ds.keytag) && Number.isInteger(ds.algorithm) && Number.isInteger(ds.digestType)
    ? ds
    : undefined;
}

const sameDs = (a: Ds, b: Ds) =>
  a.keytag === b.keytag && a.algorithm === b.algorithm && a.digestType === b.digestType && a.digest === b.digest;

/** Whether a DNSKEY is the key a DS points at (SHA-256 digests are checked; others by tag and algorithm). */
function matches(ds: Ds, key: Dnskey, zone: string): boolean {
  if (ds.keytag !== key.keytag || ds.algorithm !== key.algorithm) return false;
  return ds.digestType !== 2 || dsDigestSha256(zone, key.rdata) === ds.digest;
}

/** RFC 8078 section 4: the one CDS (and CDNSKEY) that asks the parent to remove every DS. */
const isDeleteCds = (text: string) => /^0\s+0\s+0\s+0+$/.test(text.trim());
const isDeleteCdnskey = (text: string) => /^0\s+3\s+0\s+AA==$/.test(text.trim());

/**
 * RFC 7344/8078 rules for a domain whose registry holds `current` DS records (bootstrap of an
 * unsigned domain — RFC 8078 "accept after delay" — is not done: the scan only maintains a chain
 * that exists). Each RRset has been validated from the trust anchor; on top of that:
 * - the child's DNSKEY RRset must be signed by a key an existing DS points at (RFC 7344 4.1), so
 *   only whoever holds the key the parent trusts now can change it;
 * - CDS "0 0 0 00" (or CDNSKEY "0 3 0 AA==") alone removes every DS (RFC 8078 4); mixed with
 *   other records it is an error and nothing changes;
 * - CDS and CDNSKEY, when both are published, must describe the same keys (RFC 7344 4);
 * - the new set must keep the chain: one new DS must point at a key that signs the DNSKEY RRset;
 * - a CDNSKEY without CDS becomes a SHA-256 DS; digest types and algorithms the registry does not
 *   take are left out.
 */
export function decideCds(zone: string, current: Ds[], child: ChildKeys): CdsDecision {
  if (child.cds.length === 0 && child.cdnskey.length === 0) return { outcome: 'no_cds' };
  const keys = child.dnskey.map(parseDnskey).filter((key): key is Dnskey => key !== undefined);
  const trusted = keys.filter(
    (key) => child.dnskeySigners.includes(key.keytag) && current.some((ds) => matches(ds, key, zone)),
  );
  if (trusted.length === 0) return { outcome: 'refused', reason: 'dnssec.scan.not_signed_by_ds' };

  const deleting = child.cds.some(isDeleteCds) || child.cdnskey.some(isDeleteCdnskey);
  if (deleting) {
    const onlyDelete = child.cds.every(isDeleteCds) && child.cdnskey.every(isDeleteCdnskey);
    if (!onlyDelete) return { outcome: 'refused', reason: 'dnssec.scan.mixed_delete' };
    return current.length === 0 ? { outcome: 'unchanged' } : { outcome: 'deleted' };
  }

  const fromCds = child.cds.map(parseDs).filter((ds): ds is Ds => ds !== undefined);
  const fromCdnskey = child.cdnskey
    .map(parseDnskey)
    .filter((key): key is Dnskey => key !== undefined)
    .map((key) => ({
      keytag: key.keytag,
      algorithm: key.algorithm,
      digestType: 2,
      digest: dsDigestSha256(zone, key.rdata),
    }));
  if (fromCds.length > 0 && fromCdnskey.length > 0) {
    const sameKeys = (a: Ds[], b: Ds[]) =>
      a.every((x) => b.some((y) => y.keytag === x.keytag && y.algorithm === x.algorithm));
    if (!sameKeys(fromCds, fromCdnskey) || !sameKeys(fromCdnskey, fromCds)) {
      return { outcome: 'refused', reason: 'dnssec.scan.cds_cdnskey_differ' };
    }
  }
  const wanted = (fromCds.length > 0 ? fromCds : fromCdnskey).filter(
    (ds) => ds.algorithm in DNSSEC_ALGORITHMS && DNSSEC_DIGEST_LENGTHS[ds.digestType] === ds.digest.length,
  );
  const unique = wanted.filter((ds, index) => wanted.findIndex((other) => sameDs(ds, other)) === index);
  if (unique.length === 0) return { outcome: 'refused', reason: 'dnssec.scan.unusable' };
  const signing = keys.filter((key) => child.dnskeySigners.includes(key.keytag));
  if (!unique.some((ds) => signing.some((key) => matches(ds, key, zone)))) {
    return { outcome: 'refused', reason: 'dnssec.scan.would_break' };
  }
  const same = unique.length === current.length && unique.every((ds) => current.some((c) => sameDs(ds, c)));
  return same ? { outcome: 'unchanged' } : { outcome: 'updated', ds: unique };
}
