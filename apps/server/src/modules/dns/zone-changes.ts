import type { DnsRecord } from '@panel247/contract/dns';
import {
  type DefaultRecord,
  type DefaultRecordTemplate,
  renderDefaultRecords,
} from '@panel247/contract/dns-default-records';
import { validateDnsRecord } from '@panel247/contract/dns-rules';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import type { DnsDriver } from '../../drivers/dns/dns.driver.ts';
import { FieldErrors } from '../../errors.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { Actor } from '../auth/actor.ts';
import { type PlacedServers, PlacementService } from '../nodes/placement.service.ts';
import type { AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { dnsRepository } from './dns.repository.ts';
import { type ChangeNote, type HistoryRetention, ZoneHistory } from './zone-history.ts';
import type { ZonePublishWorker } from './zone-publish-worker.ts';
import { type Changed, type PublishWaits, type Written, ZonePublisher } from './zone-publisher.ts';
import { createZonePublishing } from './zone-publishing-node.ts';
import { checkBeside, spreadTtl, unifyTtls } from './zone-record-rules.ts';
import { toRRsets } from './zone-rendering.ts';

export interface DnsSettings {
  nameservers: string[];
  defaultTtl: number;
  webIpv4: string;
  webIpv6: string;
  mailIpv4: string;
  webHost: string;
  mailHost: string;
  databasesIpv4?: string;
  databasesHost?: string;
  spfInclude: string;
  dmarcReport: string;
  templates: DefaultRecordTemplate[];
  /** Zone import by AXFR: off, public name servers only, or any address. */
  importAxfr?: 'off' | 'on' | 'any';
  /** How many change sets a zone's history keeps, and for how many days (0: no age limit). */
  history?: HistoryRetention;
}

/**
 * The provider's settings for the zone of a service some of whose parts are on named servers:
 * `{web_ipv4}`, `{web_ipv6}` and `{web_host}` are its web server's, `{mail_ipv4}` and
 * `{mail_host}` its mail server's, `{databases_ipv4}` and `{databases_host}` its databases
 * server's. A server without an IPv6 address gives no AAAA record: the
 * provider's own address would send visitors to a machine that does not serve the site.
 */
export function withPlacedServers(settings: DnsSettings, servers: PlacedServers): DnsSettings {
  const { web, mail, databases } = servers;
  return {
    ...settings,
    ...(web ? { webIpv4: web.ipv4, webIpv6: web.ipv6, webHost: web.host } : {}),
    ...(mail ? { mailIpv4: mail.ipv4, mailHost: mail.host } : {}),
    ...(databases ? { databasesIpv4: databases.ipv4, databasesHost: databases.host } : {}),
  };
}

/** A zone's history without a configured retention: its newest 500 change sets, for a year. */
const DEFAULT_HISTORY = { keep: 500, days: 365 };

/** Changes the panel makes itself (a zone's first records, a backup restored, mail's TXT records). */
export const BY_PANEL = { userId: null, who: '' };
export const by = (actor: Actor) => ({ userId: actor.userId, who: actor.username });

/** A stored record in the panel's own form (the API's, a default record's, a backup's). */
export function recordOf(row: DnsRecordRow): DefaultRecord {
  return {
    zona: row.zona,
    type: row.type,
    ttl: row.ttl,
    priority: row.priority,
    value: row.value,
    dynamicValue: row.dynamic_value,
    eliminable: row.eliminable === 1,
  };
}

export interface Zone {
  serviceId: number;
  reference: string;
  /** ASCII zone name without the trailing dot. */
  name: string;
}

type RecordInput = { zona: string; type: string; ttl: number; priority: number; value: string };

/**
 * How every DNS service (records, import, history, backups, the provider's own changes) reads and
 * changes a service's zone: who may, what a valid record is, and one change published and kept in
 * the zone's history. The panel database is the source of truth; `ZonePublisher` brings each
 * change to the DNS server (and says what the user is told when the server refuses, is down or
 * does not answer).
 */
export class ZoneChanges {
  readonly publisher: ZonePublisher;
  /** What the zones' `dns.publish-zone` jobs run. */
  readonly publishing: ZonePublishWorker;
  readonly history: ZoneHistory;

  constructor(
    private readonly db: Db,
    readonly driver: DnsDriver,
    private readonly permissions: PermissionService,
    readonly settings: DnsSettings,
    private readonly now: () => number,
    jobs: JobSender,
    waits: PublishWaits & { recheckSeconds: number; landed?: WorkLanded },
  ) {
    this.publisher = new ZonePublisher(db, driver, settings, now, jobs, waits);
    this.history = new ZoneHistory(settings.history ?? DEFAULT_HISTORY, now);
    this.publishing = createZonePublishing(
      db,
      driver,
      { ...settings, history: settings.history ?? DEFAULT_HISTORY },
      now,
      jobs,
      waits,
      waits.landed,
    );
  }

  /**
   * One change of a zone, published, and kept in its history in the same transaction (a change
   * the server refuses takes its change set out with its rows). Answers the change set's id too.
   */
  async changeZone<T>(
    zone: Zone,
    note: ChangeNote,
    write: (trx: Db) => Promise<Written<T>>,
  ): Promise<Changed<T> & { changeSet?: number }> {
    let changeSet: number | undefined;
    const changed = await this.publisher.change(zone, async (trx) => {
      const written = await write(trx);
      changeSet = await this.history.recordWritten(trx, zone.serviceId, note, written);
      return { ...written, undo: { ...written.undo, changeSet } };
    });
    return { ...changed, changeSet };
  }

  /** A change of the whole zone: what it had is kept, to publish the removals and to undo it. */
  rewrite(
    zone: Zone,
    note: ChangeNote,
    change: (trx: Db, before: DnsRecordRow[]) => Promise<void>,
  ): Promise<Changed<void>> {
    return this.changeZone(zone, note, async (trx) => {
      const before = await dnsRepository.list(trx, zone.serviceId);
      await change(trx, before);
      return {
        value: undefined,
        publish: { zoneBefore: toRRsets(before, zone.name, this.settings.defaultTtl) },
        undo: { remove: 'all', restore: before },
      } satisfies Written<void>;
    });
  }

  /**
   * Adds a checked record beside those at its name (its RRset takes its TTL), as what the change
   * wrote; `value` makes the change's answer from the new row and the records retimed with it.
   */
  async insertRecord<T>(
    trx: Db,
    zone: Zone,
    record: RecordInput,
    value: (row: DnsRecordRow, retimed: DnsRecordRow[]) => T,
  ): Promise<Written<T>> {
    const atName = await dnsRepository.listAt(trx, zone.serviceId, record.zona);
    checkBeside(record, atName);
    const row = await dnsRepository.insert(trx, this.row(zone, record));
    const retimed = await spreadTtl(trx, zone.serviceId, row, atName);
    return {
      value: value(row, retimed),
      publish: { touched: [record] },
      undo: { remove: [row.id, ...retimed.map((r) => r.id)], restore: retimed },
    };
  }

  async authorized(actor: Actor, serviceId: number, need: 'visible' | 'action'): Promise<Zone> {
    const resource: AuthorizedResource = await this.permissions.authorize(actor, serviceId, 'service_dnszone', need);
    return { serviceId, reference: resource.reference, name: resource.referencePunycode };
  }

  /**
   * Reads answer from the database and never call the DNS server. A zone still missing (a service
   * created before zones came with their service) is created here as a fallback, in the database;
   * its job brings it to the server.
   */
  async zoneToRead(actor: Actor, serviceId: number): Promise<Zone> {
    const zone = await this.authorized(actor, serviceId, 'visible');
    await this.storeZone(zone);
    return zone;
  }

  async zoneToChange(actor: Actor, serviceId: number): Promise<Zone> {
    const zone = await this.authorized(actor, serviceId, 'action');
    await this.storeZone(zone);
    return zone;
  }

  toDto(zone: Zone, row: DnsRecordRow): DnsRecord {
    const { zona, ...rest } = recordOf(row);
    return { id: row.id, zona, reference: zone.reference, referencePunycode: zone.name, ...rest };
  }

  async listRows(zone: Zone) {
    const dnss = (await dnsRepository.list(this.db, zone.serviceId)).map((row) => this.toDto(zone, row));
    return { dnss, total: dnss.length };
  }

  /**
   * The provider's default records for the zone, in the canonical form a typed record gets, with
   * the addresses and host names of the servers holding the service's parts.
   */
  async defaults(zone: Zone) {
    const values = withPlacedServers(
      this.settings,
      await new PlacementService(this.db, this.now).serversOf(zone.serviceId),
    );
    return renderDefaultRecords(this.settings.templates, { domain: zone.name, ...values }).map((record) => ({
      ...record,
      ...this.validate(zone, record),
    }));
  }

  /**
   * Creates a service's zone when the database has none: the zone row and the provider's default
   * records in the database, the zone (SOA and name servers) and its records on the server.
   * Returns whether it created it.
   */
  async storeZone(zone: Zone): Promise<boolean> {
    if (await this.publisher.exists(zone.serviceId)) return false;
    // read before the transaction: SQLite's one connection is the transaction's until it ends
    const defaults = await this.defaults(zone);
    return this.publisher.create(zone, async (trx) => {
      for (const record of defaults) {
        await dnsRepository.insert(trx, this.row(zone, record, record.dynamicValue, record.eliminable));
      }
      // The provider's templates may give records of one RRset different TTLs.
      await unifyTtls(trx, zone.serviceId, this.settings.defaultTtl);
      await this.history.recordWritten(
        trx,
        zone.serviceId,
        { kind: 'zone', ...BY_PANEL },
        {
          value: undefined,
          publish: { zoneBefore: [] },
          undo: { remove: 'all', restore: [] },
        },
      );
    });
  }

  row(zone: Zone, record: RecordInput, dynamicValue = '', eliminable = true) {
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

  validate(zone: Zone, input: { type: string; zona: string; value: string; ttl: number; priority: number }) {
    const result = validateDnsRecord(input, zone.name);
    if (!result.record) throw new FieldErrors(result.errors);
    return result.record;
  }
}
