import type { Db } from '../../db/database.ts';
import { dnsRepository } from './dns.repository.ts';

const FOLLOWS_DATABASES = /\{databases_(host|ipv4)\}/;

/**
 * The name in a service's zone that follows its databases' server: the first address or alias
 * record the panel made from `{databases_host}` or `{databases_ipv4}` (a provider's default
 * record such as `db CNAME {databases_host}`), which a databases move points at the new server.
 * Applications given it as their database host keep working after a move; without one they are
 * given the server's own host name, which a move leaves behind.
 */
export async function databaseHostRecord(db: Db, serviceId: number, domain: string): Promise<string | undefined> {
  const record = (await dnsRepository.list(db, serviceId)).find(
    (row) => ['A', 'AAAA', 'CNAME'].includes(row.type) && FOLLOWS_DATABASES.test(row.dynamic_value),
  );
  if (!record) return undefined;
  return record.zona === '' ? domain : `${record.zona}.${domain}`;
}
