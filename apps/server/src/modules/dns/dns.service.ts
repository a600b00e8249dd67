import type { DnsCreateParams, DnsListParams, DnsRecord, DnsSaveParams } from '@panel247/contract/dns';
import { type DefaultRecordTemplate, renderDefaultRecords } from '@panel247/contract/dns-default-records';
import { canonicalIPv6, validateDnsRecord } from '@panel247/contract/dns-rules';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import { type DnsDriver, DnsRefusedError, type DsRecord, type RRset } from '../../drivers/dns/dns.driver.ts';
import { DaemonError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { type AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import { dnsRepository } from './dns.repository.ts';
import { toBindZone, toRRsets, touchedRRsets } from './zone-rendering.ts';

export interface DnsSettings {
  nameservers: string[];
  defaultTtl: number;
  webIpv4: string;
  webIpv6: string;
  mailIpv4: string;
  webHost: string;
  mailHost: string;
  templates: DefaultRecordTemplate[];
}

interface Zone {
  serviceId: number;
  reference: string;
  /** ASCII zone name without the trailing dot. */
  name: string;
}

export interface DriftReport {
  zone: string;
  missing: string[];
  extra: string[];
  changed: string[];
}

/**
 * A service's DNS zone. The panel database is the source of truth: every change runs in one
 * transaction that also applies the touched RRsets through the driver, so a refusal or an
 * unreachable server rolls the database back and nothing is half-applied.
 */
export class DnsService {
  constructor(
    private readonly db: Db,
    private readonly driver: DnsDriver,
    private readonly permissions: PermissionService,
    private readonly settings: DnsSettings,
    private readonly now: () => number,
  ) {}

  private async authorized(actor: Actor, serviceId: number, need: 'visible' | 'action'): Promise<Zone> {
    const resource: AuthorizedResource = await this.permissions.authorize(actor, serviceId, 'service_dnszone', need);
    return { serviceId, reference: resource.reference, name: resource.referencePunycode };
  }

  /**
   * Reads answer from the database and never call the DNS server. A zone still missing (a service
   * created before zones came with their service) is created here as a fallback; if the server
   * cannot take it now, the read still answers, from what the database holds.
   */
  private async zoneToRead(actor: Actor, serviceId: number): Promise<Zone> {
    const zone = await this.authorized(actor, serviceId, 'visible');
    try {
      await this.storeZone(zone);
    } catch (error) {
      if (!(error instanceof DaemonError)) throw error;
    }
    return zone;
  }

  private async zoneToChange(actor: Actor, serviceId: number): Promise<Zone> {
    const zone = await this.authorized(actor, serviceId, 'action');
    await this.publishedZone(zone);
    return zone;
  }

  private toDto(zone: Zone, row: DnsRecordRow): DnsRecord {
    return {
      id: row.id,
      zona: row.zona,
      reference: zone.reference,
      referencePunycode: zone.name,
      type: row.type,
      ttl: row.ttl,
      priority: row.priority,
      value: row.value,
      dynamicValue: row.dynamic_value,
      eliminable: row.eliminable === 1,
    };
  }

  /** The provider's default records for the zone, in the canonical form a typed record gets. */
  private defaults(zone: Zone) {
    return renderDefaultRecords(this.settings.templates, { domain: zone.name, ...this.settings }).map((record) => ({
      ...record,
      ...this.validate(zone, record),
    }));
  }

  /**
   * Creates a service's zone when the database has none: the zone row and the provider's default
   * records in the database, the zone (SOA and name servers) and its records on the server, all or
   * nothing. Returns whether it created it.
   */
  private async storeZone(zone: Zone): Promise<boolean> {
    if (await dnsRepository.zoneExists(this.db, zone.serviceId)) return false;
    try {
      await this.db.transaction().execute(async (trx) => {
        await dnsRepository.insertZone(trx, zone.serviceId, this.now());
        for (const record of this.defaults(zone)) {
          await dnsRepository.insert(trx, this.row(zone, record, record.dynamicValue, record.eliminable));
        }
        await this.driver.ensureZone(zone.name, this.settings.nameservers);
        await this.publishAll(trx, zone);
      });
    } catch (error) {
      // Another request (or instance) created it meanwhile and won the insert: that is fine.
      if (await dnsRepository.zoneExists(this.db, zone.serviceId)) return false;
      throw error;
    }
    return true;
  }

  /** Before a change: the zone in the database, and on the server (cheap once the driver knows it). */
  private async publishedZone(zone: Zone): Promise<void> {
    if (!(await this.storeZone(zone))) await this.driver.ensureZone(zone.name, this.settings.nameservers);
  }

  /** Replaces the whole zone on the server with the database's records (and deletes the rest). */
  private async publishAll(db: Db, zone: Zone, previous: RRset[] = []): Promise<void> {
    const wanted = toRRsets(await dnsRepository.list(db, zone.serviceId), zone.name, this.settings.defaultTtl);
    const keep = new Set(wanted.map((set) => `${set.name} ${set.type}`));
    const gone = previous
      .filter((set) => !keep.has(`${set.name} ${set.type}`))
      .map((set) => ({ ...set, contents: [] }));
    await this.driver.replaceRRsets(zone.name, [...wanted, ...gone]);
  }

  private row(
    zone: Zone,
    record: { zona: string; type: string; ttl: number; priority: number; value: string },
    dynamicValue = '',
    eliminable = true,
  ) {
    return {
      service_id: zone.serviceId,
      zona: record.zona,
      type: record.type,
      ttl: record.ttl,
      priority: record.priority,
      value: record.value,
      dynamic_value: dynamicValue,
      eliminable,
      created_at: this.now(),
    };
  }

  async list(actor: Actor, params: DnsListParams): Promise<{ dnss: DnsRecord[]; total: number }> {
    const zone = await this.zoneToRead(actor, params.id);
    if (params.page === undefined && !params.type && !params.filter) {
      const rows = await dnsRepository.list(this.db, params.id);
      return { dnss: rows.map((row) => this.toDto(zone, row)), total: rows.length };
    }
    const limit = params.page === undefined ? 100_000 : params.pageSize;
    const { rows, total } = await dnsRepository.page(this.db, params.id, zone, {
      type: params.type,
      filter: params.filter,
      limit,
      offset: ((params.page ?? 1) - 1) * limit,
    });
    return { dnss: rows.map((row) => this.toDto(zone, row)), total };
  }

  async get(actor: Actor, serviceId: number, recordId: number): Promise<DnsRecord> {
    const zone = await this.zoneToRead(actor, serviceId);
    const row = await dnsRepository.find(this.db, serviceId, recordId);
    if (!row) throw new NotFoundError();
    return this.toDto(zone, row);
  }

  private validate(zone: Zone, input: { type: string; zona: string; value: string; ttl: number; priority: number }) {
    const result = validateDnsRecord(input, zone.name);
    if (!result.record) throw new FieldErrors(result.errors);
    return result.record;
  }

  /** CNAME stands alone at its name; identical records are refused. */
  private async checkNeighbours(
    db: Db,
    zone: Zone,
    record: { zona: string; type: string; value: string; priority: number },
    ignoreId?: number,
  ) {
    const others = (await dnsRepository.listAt(db, zone.serviceId, record.zona)).filter((row) => row.id !== ignoreId);
    if (record.type === 'CNAME' ? others.length > 0 : others.some((row) => row.type === 'CNAME')) {
      throw FieldErrors.one('zona', 'dns.error.cname_exclusive');
    }
    if (
      others.some((row) => row.type === record.type && row.value === record.value && row.priority === record.priority)
    ) {
      throw FieldErrors.one('value', 'dns.error.duplicate');
    }
  }

  async create(actor: Actor, params: DnsCreateParams): Promise<DnsRecord> {
    const zone = await this.zoneToChange(actor, params.id);
    const record = this.validate(zone, params);
    return refusalAsFieldError('zona', () =>
      this.inZone(zone, async (trx) => {
        await this.checkNeighbours(trx, zone, record);
        const row = await dnsRepository.insert(trx, this.row(zone, record));
        await this.apply(trx, zone, [record]);
        return this.toDto(zone, row);
      }),
    );
  }

  async save(actor: Actor, params: DnsSaveParams): Promise<DnsRecord> {
    const zone = await this.zoneToChange(actor, params.id);
    const existing = await dnsRepository.find(this.db, zone.serviceId, params.dnsZoneId);
    if (!existing) throw new NotFoundError();
    const record = this.validate(zone, { ...params, type: existing.type, zona: existing.zona });
    // The edit form has no name field (type and name stay fixed): a name clash goes under the value.
    return refusalAsFieldError('value', () =>
      this.inZone(zone, async (trx) => {
        await this.checkNeighbours(trx, zone, record, existing.id);
        const row = await dnsRepository.update(trx, zone.serviceId, existing.id, record);
        await this.apply(trx, zone, [record]);
        return this.toDto(zone, row);
      }),
    );
  }

  async remove(actor: Actor, serviceId: number, recordId: number): Promise<void> {
    const zone = await this.zoneToChange(actor, serviceId);
    const existing = await dnsRepository.find(this.db, serviceId, recordId);
    if (!existing) throw new NotFoundError();
    if (existing.eliminable !== 1) throw new ForbiddenError('dns.error.not_eliminable');
    await this.inZone(zone, async (trx) => {
      await dnsRepository.delete(trx, serviceId, recordId);
      await this.apply(trx, zone, [existing]);
    });
  }

  /** Back to the provider's defaults: every record goes, the defaults come back. */
  async restore(actor: Actor, serviceId: number): Promise<{ dnss: DnsRecord[]; total: number }> {
    const zone = await this.zoneToChange(actor, serviceId);
    await this.rewrite(zone, async (trx) => {
      await dnsRepository.deleteAll(trx, serviceId);
      for (const record of this.defaults(zone)) {
        await dnsRepository.insert(trx, this.row(zone, record, record.dynamicValue, record.eliminable));
      }
    });
    return this.listRows(zone);
  }

  /** Deletes every eliminable record; the provider's name servers stay. */
  async removeAll(actor: Actor, serviceId: number): Promise<{ dnss: DnsRecord[]; total: number }> {
    const zone = await this.zoneToChange(actor, serviceId);
    await this.rewrite(zone, (trx) => dnsRepository.deleteEliminable(trx, serviceId));
    return this.listRows(zone);
  }

  /**
   * One change of a zone: a transaction that first takes the zone's lock, so that changes of one
   * zone (two restores, forty creates at one name) never interleave. Each then reads the records
   * the previous one committed and sends the server RRsets that hold all of them: without the
   * lock, the last of two concurrent replacements of one RRset dropped the other's record, and two
   * restores each put the defaults back.
   */
  private inZone<T>(zone: Zone, change: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await dnsRepository.lockZone(trx, zone.serviceId);
      return change(trx);
    });
  }

  private async rewrite(zone: Zone, change: (trx: Db) => Promise<void>) {
    await this.inZone(zone, async (trx) => {
      const before = toRRsets(await dnsRepository.list(trx, zone.serviceId), zone.name, this.settings.defaultTtl);
      await change(trx);
      await this.publishAll(trx, zone, before);
    });
  }

  private async listRows(zone: Zone) {
    const dnss = (await dnsRepository.list(this.db, zone.serviceId)).map((row) => this.toDto(zone, row));
    return { dnss, total: dnss.length };
  }

  private async apply(trx: Db, zone: Zone, touched: { zona: string; type: string }[]) {
    const current = await dnsRepository.list(trx, zone.serviceId);
    await this.driver.replaceRRsets(zone.name, touchedRRsets(touched, current, zone.name, this.settings.defaultTtl));
  }

  async exportZone(actor: Actor, serviceId: number): Promise<{ fileName: string; text: string }> {
    const zone = await this.zoneToRead(actor, serviceId);
    const rows = await dnsRepository.list(this.db, serviceId);
    const text = toBindZone(rows, zone.name, {
      defaultTtl: this.settings.defaultTtl,
      nameservers: this.settings.nameservers,
      serial: this.now(),
    });
    return { fileName: `${zone.name}.zone`, text };
  }

  /**
   * Rewrites the server from the database, zone by zone, and reports what differed before
   * (records missing on the server, extra there, or with other contents or TTL).
   */
  async sync(only?: string): Promise<DriftReport[]> {
    const zones = (await dnsRepository.listZones(this.db)).filter(
      (z) => !only || z.reference === only || z.reference_punycode === only,
    );
    if (only && zones.length === 0) throw new NotFoundError();
    // The embedded driver has no server: the database is all there is, so nothing can drift.
    if (!this.driver.publishesZones) {
      return zones.map((z) => ({ zone: z.reference_punycode, missing: [], extra: [], changed: [] }));
    }
    const reports: DriftReport[] = [];
    for (const z of zones) {
      const zone = { serviceId: z.service_id, reference: z.reference, name: z.reference_punycode };
      // Under the zone's lock: a change committing meanwhile would look like drift.
      const report = await this.inZone(zone, async (trx) => {
        const wanted = toRRsets(await dnsRepository.list(trx, zone.serviceId), zone.name, this.settings.defaultTtl);
        const actual = (await this.driver.readZone(zone.name)) ?? [];
        const found = diff(zone.name, wanted, actual);
        if (found.missing.length + found.extra.length + found.changed.length > 0) {
          await this.driver.ensureZone(zone.name, this.settings.nameservers);
          await this.publishAll(trx, zone, actual);
        }
        return found;
      });
      reports.push(report);
    }
    return reports;
  }

  async zoneExists(serviceId: number): Promise<boolean> {
    return Boolean(await dnsRepository.zoneExists(this.db, serviceId));
  }

  /**
   * A service gets its zone when it is created (CLI `resource add`, the demo seed), without an
   * actor. Only the database decides whether it exists, so a server that is down makes this fail
   * only when the zone is new. Returns whether it created the zone.
   */
  async ensureZoneOf(serviceId: number, reference: string, referencePunycode: string): Promise<boolean> {
    return this.storeZone({ serviceId, reference, name: referencePunycode });
  }

  /** Whether the DNS server can sign the zones hosted here (DNSSEC keys). */
  get signsZones(): boolean {
    return this.driver.signsZones;
  }

  /**
   * The DS records of a service's zone, for its domain's registry: the zone is created (and
   * published) first if the service never had it, then signed if it was not yet.
   */
  async dsRecordsOf(serviceId: number, reference: string, referencePunycode: string): Promise<DsRecord[]> {
    const zone = { serviceId, reference, name: referencePunycode };
    await this.publishedZone(zone);
    return this.driver.dsRecords(zone.name);
  }

  /** Adds a record without an actor (demo seed); same validation as the API. */
  async addRecord(
    serviceId: number,
    reference: string,
    referencePunycode: string,
    input: { type: string; zona: string; value: string; ttl: number; priority: number },
  ): Promise<void> {
    const zone = { serviceId, reference, name: referencePunycode };
    await this.publishedZone(zone);
    const record = this.validate(zone, input);
    await this.inZone(zone, async (trx) => {
      await this.checkNeighbours(trx, zone, record);
      await dnsRepository.insert(trx, this.row(zone, record));
      await this.apply(trx, zone, [record]);
    });
  }
}

/** The DNS service as configured (shared by the server, the CLI and the demo seed). */
export function createDnsService(db: Db, config: AppConfig, driver: DnsDriver, now: () => number): DnsService {
  return new DnsService(
    db,
    driver,
    new PermissionService(db),
    {
      nameservers: config.dns.nameservers,
      defaultTtl: config.dns.defaultTtl,
      webIpv4: config.dns.webIpv4,
      webIpv6: config.dns.webIpv6,
      mailIpv4: config.dns.mailIpv4,
      webHost: config.dns.webHost,
      mailHost: config.dns.mailHost,
      templates: config.dns.defaultRecords,
    },
    now,
  );
}

/**
 * A change the DNS server refused (its transaction already rolled back) becomes a field error when
 * the refusal says what was wrong: the name (a record planted on the server clashes with it) or
 * the content. Anything else stays a global error.
 */
async function refusalAsFieldError<T>(nameField: 'zona' | 'value', change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof DnsRefusedError && error.reason === 'name') {
      throw FieldErrors.one(nameField, 'dns.error.refused_name');
    }
    if (error instanceof DnsRefusedError && error.reason === 'content') {
      throw FieldErrors.one('value', 'dns.error.refused');
    }
    throw error;
  }
}

function diff(zone: string, wanted: RRset[], actual: RRset[]): DriftReport {
  const key = (set: RRset) => `${set.name} ${set.type}`;
  const describe = (set: RRset) => `${set.name} ${set.type}`;
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
    if (!found) report.missing.push(describe(set));
    else if (normal(found) !== normal(set)) report.changed.push(describe(set));
  }
  for (const [k, set] of have) if (!want.has(k)) report.extra.push(describe(set));
  return report;
}
