import type { DnsDriver, DsRecord, RRset } from '../../src/drivers/dns/dns.driver.ts';

/**
 * A DNS server in memory that signs zones (API tests of the DNSSEC card; the real signing is
 * proved against PowerDNS under test/integration): signing gives a zone one key with a SHA-256
 * and a SHA-384 DS, removing the keys unsigns it, and every call is recorded in order.
 */
export class SigningDnsDriver implements DnsDriver {
  readonly kind = 'database' as const;
  readonly publishesZones = false;
  readonly signsZones = true;
  readonly signed = new Map<string, DsRecord[]>();
  readonly calls: string[] = [];

  async ensureZone(): Promise<void> {}
  async replaceRRsets(_zone: string, _rrsets: RRset[]): Promise<void> {}
  async removeZone(): Promise<void> {}
  async readZone(): Promise<RRset[] | undefined> {
    return undefined;
  }

  async dsRecords(zone: string): Promise<DsRecord[]> {
    this.calls.push(`sign ${zone}`);
    if (!this.signed.has(zone)) {
      const keytag = 1000 + this.signed.size;
      this.signed.set(zone, [
        { keytag, algorithm: 13, digestType: 2, digest: (keytag % 100).toString(16).padStart(2, '0').repeat(32) },
        { keytag, algorithm: 13, digestType: 4, digest: 'cd'.repeat(48) },
      ]);
    }
    return this.signed.get(zone) ?? [];
  }

  async signedDs(zone: string): Promise<DsRecord[]> {
    return this.signed.get(zone) ?? [];
  }

  async removeKeys(zone: string): Promise<void> {
    this.calls.push(`unsign ${zone}`);
    this.signed.delete(zone);
  }
}
