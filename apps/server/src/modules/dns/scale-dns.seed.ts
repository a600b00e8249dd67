import { DNS_TTLS, validateDnsRecord } from '@panel247/contract/dns-rules';
import { numbered } from '../../db/bulk-insert.ts';
import type { Db } from '../../db/database.ts';
import { dnsRepository } from './dns.repository.ts';
import type { DnsService } from './dns.service.ts';

/**
 * The i-th record of the scale zone: every type a customer uses, each at a name of its own
 * (so no CNAME shares a name and no two records are twins: the neighbour rules hold).
 */
function scaleRecord(i: number, largest: number, zone: string) {
  const n = (prefix: string) => numbered(prefix, i, largest);
  const ttl = DNS_TTLS[i % DNS_TTLS.length] as number;
  const octet = (i % 254) + 1;
  switch (i % 8) {
    case 0:
      return { type: 'AAAA', zona: n('v6-'), value: `2001:db8::${i.toString(16)}`, ttl, priority: 0 };
    case 1:
      return { type: 'CNAME', zona: n('alias'), value: `www.${zone}`, ttl, priority: 0 };
    case 2:
      return { type: 'MX', zona: n('mx'), value: `mail.${zone}`, ttl, priority: 10 };
    case 3:
      return { type: 'TXT', zona: n('txt'), value: `scale record ${i}`, ttl, priority: 0 };
    case 4:
      return { type: 'SRV', zona: `_sip._tcp.${n('sip')}`, value: `5 5060 sip.${zone}`, ttl, priority: 20 };
    case 5:
      return { type: 'CAA', zona: n('caa'), value: '0 issue "letsencrypt.org"', ttl, priority: 0 };
    default:
      return { type: 'A', zona: n('host'), value: `192.0.2.${octet}`, ttl, priority: 0 };
  }
}

/**
 * The scale data set's zone: the service's zone (created with the provider's defaults if
 * missing) filled up to `total` records, checked by the same rules as the create call and
 * inserted in bulk in one transaction. Once: a zone that already has the first generated record
 * is left alone. Only for a DNS driver that publishes nothing (the caller checks): the rows are
 * the whole zone. Returns how many records went in.
 */
export async function seedScaleZone(
  db: Db,
  dns: DnsService,
  service: { id: number; reference: string; domain: string },
  total: number,
  now: number,
): Promise<number> {
  await dns.ensureZoneOf(service.id, service.reference, service.domain);
  const existing = await dnsRepository.list(db, service.id);
  const first = scaleRecord(1, total, service.domain);
  if (existing.some((row) => row.zona === first.zona && row.type === first.type)) return 0;
  const rows: Parameters<typeof dnsRepository.insertMany>[1] = [];
  for (let i = 1; rows.length < total - existing.length; i += 1) {
    const checked = validateDnsRecord(scaleRecord(i, total, service.domain), service.domain);
    if (!checked.record) throw new Error(`Invalid scale record ${i}: ${JSON.stringify(checked.errors)}`);
    rows.push({ ...checked.record, service_id: service.id, dynamic_value: '', eliminable: true, created_at: now });
  }
  await db.transaction().execute((trx) => dnsRepository.insertMany(trx, rows));
  return rows.length;
}
