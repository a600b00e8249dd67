import type { DnsDriver, DsRecord, RRset } from '../../src/drivers/dns/dns.driver.ts';
import { DnsRefusedError, DnsUnconfirmedError } from '../../src/drivers/dns/dns.driver.ts';
import { DaemonError } from '../../src/errors.ts';

/**
 * What the scripted server does with the next change it receives:
 * - `refuse`: answers 422, applies nothing;
 * - `down`: cannot be reached, applies nothing;
 * - `late`: does not answer in time; the change is kept and applied when `wake()` is called,
 *   as a hung PowerDNS applies what it received once it runs again;
 * - `hang`: answers only when `wake()` is called (applied then, confirmed then).
 */
export type ScriptedOutcome = 'refuse' | 'down' | 'late' | 'hang';

/**
 * A DNS server in memory for tests of the publishing rules (unit and API tests only: the real
 * PowerDNS tests live under test/integration). RRsets replace as PowerDNS's PATCH does; each
 * change may wait a random moment first, so that unordered writers would show.
 */
export class ScriptedDnsDriver implements DnsDriver {
  readonly kind = 'powerdns' as const;
  readonly publishesZones = true;
  readonly signsZones = false;
  readonly zones = new Map<string, Map<string, RRset>>();
  private readonly plan: ScriptedOutcome[] = [];
  private sleeping: (() => void)[] = [];
  /** Changes received so far. */
  received = 0;

  /** Each change may wait up to this long first, so that unordered writers would show. */
  constructor(public jitterMs = 0) {}

  /** The next changes' outcomes, in order; changes beyond them succeed. */
  script(...outcomes: ScriptedOutcome[]): void {
    this.plan.push(...outcomes);
  }

  /** Applies (and answers) what the server received while it was hung. */
  wake(): void {
    const sleeping = this.sleeping;
    this.sleeping = [];
    for (const resume of sleeping) resume();
  }

  /** Scripted outcomes not used yet. */
  get planned(): number {
    return this.plan.length;
  }

  get asleep(): number {
    return this.sleeping.length;
  }

  /** The server's records of a name and type, sorted. */
  contents(zone: string, name: string, type: string): string[] {
    return [...(this.zones.get(zone)?.get(`${name} ${type}`)?.contents ?? [])].sort();
  }

  async ensureZone(zone: string): Promise<void> {
    if (!this.zones.has(zone)) this.zones.set(zone, new Map());
  }

  async replaceRRsets(zone: string, rrsets: RRset[]): Promise<void> {
    this.received += 1;
    const outcome = this.plan.shift();
    if (this.jitterMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * this.jitterMs));
    if (outcome === 'refuse') throw new DnsRefusedError('name', 'scripted refusal');
    if (outcome === 'down') throw new DaemonError('dns.error.server_down', 'scripted: down');
    if (outcome === 'late') {
      this.sleeping.push(() => this.apply(zone, rrsets));
      throw new DnsUnconfirmedError('scripted: no answer in time');
    }
    if (outcome === 'hang') await new Promise<void>((resolve) => this.sleeping.push(resolve));
    this.apply(zone, rrsets);
  }

  private apply(zone: string, rrsets: RRset[]): void {
    const sets = this.zones.get(zone) ?? new Map<string, RRset>();
    this.zones.set(zone, sets);
    for (const set of rrsets) {
      const key = `${set.name} ${set.type}`;
      if (set.contents.length === 0) sets.delete(key);
      else sets.set(key, { ...set, contents: [...set.contents] });
    }
  }

  async removeZone(zone: string): Promise<void> {
    this.zones.delete(zone);
  }

  async readZone(zone: string): Promise<RRset[] | undefined> {
    const sets = this.zones.get(zone);
    return sets ? [...sets.values()].map((set) => ({ ...set, contents: [...set.contents] })) : undefined;
  }

  async dsRecords(): Promise<DsRecord[]> {
    return [];
  }
}
