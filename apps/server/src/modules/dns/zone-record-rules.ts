import { SECOND_TXT_ERROR, type SingleTxtKind, singleTxtKind } from '@panel247/contract/mail-auth-rules';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import { FieldErrors } from '../../errors.ts';
import { dnsRepository } from './dns.repository.ts';
import { rrsetKey } from './zone-history.ts';

/**
 * The rules between a record and the others at its name: CNAME stands alone; no identical twins;
 * one SPF record per name and one DMARC record at `_dmarc` (receivers fail SPF with two, and
 * ignore DMARC). `was` is the kind the record had before an edit: keeping it adds no second one.
 */
export function checkBeside(
  record: { zona: string; type: string; value: string; priority: number },
  others: DnsRecordRow[],
  was?: SingleTxtKind,
) {
  if (record.type === 'CNAME' ? others.length > 0 : others.some((row) => row.type === 'CNAME')) {
    throw FieldErrors.one('zona', 'dns.error.cname_exclusive');
  }
  if (
    others.some((row) => row.type === record.type && row.value === record.value && row.priority === record.priority)
  ) {
    throw FieldErrors.one('value', 'dns.error.duplicate');
  }
  const kind = record.type === 'TXT' ? singleTxtKind(record.zona, record.value) : undefined;
  if (kind && kind !== was && others.some((row) => row.type === 'TXT' && singleTxtKind(row.zona, row.value) === kind)) {
    throw FieldErrors.one('value', SECOND_TXT_ERROR[kind]);
  }
}

/**
 * One TTL per RRset, as the DNS server serves it: the records of `row`'s name and type among
 * `atName` take its TTL. Answers those that changed, as they were (to put back if the server
 * refuses the change).
 */
export async function spreadTtl(trx: Db, serviceId: number, row: DnsRecordRow, atName: DnsRecordRow[]) {
  const retimed = atName.filter((other) => other.id !== row.id && other.type === row.type && other.ttl !== row.ttl);
  await dnsRepository.setTtl(
    trx,
    serviceId,
    retimed.map((other) => other.id),
    row.ttl,
  );
  return retimed;
}

/**
 * Gives each RRset of a zone the TTL the server serves for it (see `DnsSyncService.normaliseRRsetTtls`);
 * answers how many records changed.
 */
export async function unifyTtls(trx: Db, serviceId: number, defaultTtl: number): Promise<number> {
  const effective = (ttl: number) => ttl || defaultTtl;
  const sets = new Map<string, DnsRecordRow[]>();
  for (const row of await dnsRepository.list(trx, serviceId)) {
    const key = rrsetKey(row);
    sets.set(key, [...(sets.get(key) ?? []), row]);
  }
  let changed = 0;
  for (const rows of sets.values()) {
    const served = rows.reduce((best, row) =>
      effective(row.ttl) < effective(best.ttl) || (effective(row.ttl) === effective(best.ttl) && row.ttl === 0)
        ? row
        : best,
    ).ttl;
    const others = rows.filter((row) => row.ttl !== served).map((row) => row.id);
    await dnsRepository.setTtl(trx, serviceId, others, served);
    changed += others.length;
  }
  return changed;
}
