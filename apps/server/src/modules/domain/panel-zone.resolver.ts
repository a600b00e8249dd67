import type { Db } from '../../db/database.ts';
import type { HostResolver } from '../../drivers/registry/host-resolver.ts';
import { domainRepository } from './domain.repository.ts';

/** How many aliases are followed before a chain counts as a loop. */
const MAX_ALIASES = 8;

/**
 * Answers from the panel's own zones, for the `database` DNS driver only: then no server publishes
 * those zones, so the panel's database is their authority and a provider's name servers (which
 * usually live in a zone managed here) could not resolve anywhere else. A name resolves when it
 * has an A or AAAA record; a CNAME or ANAME is followed while its target stays in the panel's
 * zones (a target elsewhere, or a loop, does not count here — the DNS resolver after this one in
 * the chain gets its turn with the original name). Any account's zone counts: the answer is only
 * "resolves or not", which the public DNS would give anyone.
 */
export class PanelZoneResolver implements HostResolver {
  constructor(private readonly db: Db) {}

  async resolves(host: string): Promise<boolean> {
    const seen = new Set<string>();
    let name = host.toLowerCase().replace(/\.$/, '');
    while (!seen.has(name) && seen.size < MAX_ALIASES) {
      seen.add(name);
      const records = await domainRepository.ownZoneRecords(this.db, name);
      if (records.some((record) => record.type === 'A' || record.type === 'AAAA')) return true;
      const alias = records.find((record) => record.type === 'CNAME' || record.type === 'ANAME');
      if (!alias) return false;
      name = alias.value.toLowerCase().replace(/\.$/, '');
    }
    return false;
  }
}
