import type { Db } from '../../db/database.ts';
import type { HostResolver } from '../../drivers/registry/host-resolver.ts';
import { domainRepository } from './domain.repository.ts';

/**
 * Names the panel's own DNS zones answer for (A, AAAA, CNAME, ANAME records): a provider's name
 * servers usually live in a zone the panel manages, possibly not yet published.
 */
export class PanelZoneResolver implements HostResolver {
  constructor(private readonly db: Db) {}

  async resolves(host: string): Promise<boolean> {
    return (await domainRepository.ownZoneAnswers(this.db, host)) > 0;
  }
}
