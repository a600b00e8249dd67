import type { DnsDriver, DsRecord, RRset } from './dns.driver.ts';

/**
 * The embedded default: the zone lives in the panel database only (to be published by whatever
 * the operator sets up later, e.g. `npm run panel -- dns export`). Every change succeeds here.
 */
export class EmbeddedDnsDriver implements DnsDriver {
  readonly kind = 'database' as const;
  readonly publishesZones = false;
  readonly signsZones = false;
  async ensureZone(): Promise<void> {}
  async replaceRRsets(_zone: string, _rrsets: RRset[]): Promise<void> {}
  async removeZone(): Promise<void> {}
  async readZone(): Promise<RRset[] | undefined> {
    return undefined;
  }
  async dsRecords(): Promise<DsRecord[]> {
    return [];
  }
}
