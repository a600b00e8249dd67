import { canonicalIPv6 } from '@panel247/contract/dns-rules';
import type { Db } from '../../db/database.ts';
import type { DnsDriver, RRset } from '../../drivers/dns/dns.driver.ts';
import { dnsRepository } from './dns.repository.ts';
import type { DriftReport } from './zone-publish-log.ts';
import { toRRsets, touchedRRsets } from './zone-rendering.ts';

export interface PublishedZone {
  serviceId: number;
  /** ASCII zone name without the trailing dot. */
  name: string;
}

/** What a comparison found, with both sides (for the history of a repair). */
export interface Comparison {
  report: DriftReport;
  server: RRset[];
  wanted: RRset[];
}

/**
 * The DNS server as the panel's zones see it: the RRsets a change touched sent as the database
 * holds them when they are sent, and a zone compared with the database and repaired. Sending what
 * the database holds (never what a change meant) makes a send safe to repeat.
 */
export class ZoneServer {
  constructor(
    private readonly db: Db,
    readonly driver: DnsDriver,
    private readonly settings: { nameservers: string[]; defaultTtl: number },
  ) {}

  async ensure(zone: PublishedZone): Promise<void> {
    await this.driver.ensureZone(zone.name, this.settings.nameservers);
  }

  /** The RRsets of these names and types as the database holds them now. */
  async sendTouched(zone: PublishedZone, touched: { zona: string; type: string }[]): Promise<void> {
    const names = [...new Set(touched.map((t) => t.zona))];
    const rows = (await Promise.all(names.map((zona) => dnsRepository.listAt(this.db, zone.serviceId, zona)))).flat();
    await this.driver.replaceRRsets(zone.name, touchedRRsets(touched, rows, zone.name, this.settings.defaultTtl));
  }

  /** The whole zone as the database holds it; what `before` had and the database no longer has goes. */
  async sendZone(zone: PublishedZone, before: RRset[]): Promise<void> {
    const wanted = await this.wanted(zone);
    const keep = new Set(wanted.map((set) => `${set.name} ${set.type}`));
    const gone = before.filter((set) => !keep.has(`${set.name} ${set.type}`)).map((set) => ({ ...set, contents: [] }));
    await this.driver.replaceRRsets(zone.name, [...wanted, ...gone]);
  }

  /** Compares the server's copy with the database; unless `dryRun`, rewrites what differs. */
  async sync(zone: PublishedZone, dryRun: boolean): Promise<Comparison> {
    const wanted = await this.wanted(zone);
    const server = (await this.driver.readZone(zone.name)) ?? [];
    const report = diff(zone.name, wanted, server);
    if (!isClean(report) && !dryRun) {
      await this.ensure(zone);
      await this.sendZone(zone, server);
    }
    return { report, server, wanted };
  }

  private async wanted(zone: PublishedZone): Promise<RRset[]> {
    return toRRsets(await dnsRepository.list(this.db, zone.serviceId), zone.name, this.settings.defaultTtl);
  }
}

export function isClean(report: DriftReport): boolean {
  return report.missing.length + report.extra.length + report.changed.length === 0;
}

function diff(zone: string, wanted: RRset[], actual: RRset[]): DriftReport {
  const key = (set: RRset) => `${set.name} ${set.type}`;
  // PowerDNS prints an IPv4-mapped AAAA with a dotted tail, the panel sends it in hex: same address.
  const content = (set: RRset, text: string) =>
    set.type === 'AAAA' ? (canonicalIPv6(text) ?? text.toLowerCase()) : text.toLowerCase();
  const normal = (set: RRset) =>
    `${set.ttl} ${[...set.contents]
      .map((c) => content(set, c))
      .sort()
      .join(' | ')}`;
  const have = new Map(actual.map((set) => [key(set), set]));
  const want = new Map(wanted.map((set) => [key(set), set]));
  const report: DriftReport = { zone, missing: [], extra: [], changed: [] };
  for (const [k, set] of want) {
    const found = have.get(k);
    if (!found) report.missing.push(k);
    else if (normal(found) !== normal(set)) report.changed.push(k);
  }
  for (const [k] of have) if (!want.has(k)) report.extra.push(k);
  return report;
}
