import type { DnsImportAxfrParams, DnsImportOptionsData, DnsImportParams } from '@panel247/contract/dns-import';
import {
  canonicalIPv6,
  DNS_IMPORT_MAX_RECORDS,
  DNS_IMPORT_MAX_TEXT,
  type DnsImportConflictChoice,
  type DnsImportMode,
  isHostName,
  isIPv4,
} from '@panel247/contract/dns-rules';
import type { Db } from '../../db/database.ts';
import type { DnsRecordRow } from '../../db/schema.ts';
import { type ZoneTransfer, ZoneTransferError } from '../../drivers/dns/zone-transfer.ts';
import { FieldErrors, ForbiddenError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { dnsRepository } from './dns.repository.ts';
import { by, type Zone, type ZoneChanges } from './zone-changes.ts';
import { type ImportPlan, planImport, readZoneImport } from './zone-import.ts';
import type { Changed } from './zone-publisher.ts';

/** A zone file (pasted, or read from another name server by AXFR) previewed and applied to a zone. */
export class DnsImportService {
  constructor(
    private readonly db: Db,
    private readonly changes: ZoneChanges,
    private readonly zoneTransfer: ZoneTransfer,
  ) {}

  /**
   * What a zone file would do to the zone (nothing is changed). Needs the right to change the
   * zone: the preview is the first step of a change.
   */
  async importPreview(actor: Actor, params: DnsImportParams): Promise<ImportPlan> {
    const zone = await this.changes.authorized(actor, params.id, 'action');
    const read = this.readImport(zone, params.text);
    return this.planImport(read, await dnsRepository.list(this.db, zone.serviceId), params);
  }

  /**
   * Imports a zone file: read and checked again, planned against the zone as it is under the
   * zone's lease, written in one transaction and published as one whole-zone change (the path
   * restore-defaults and delete-all take), so the server refusing it leaves the zone as it was.
   */
  async importApply(actor: Actor, params: DnsImportParams): Promise<Changed<{ plan: ImportPlan; applied: boolean }>> {
    const zone = await this.changes.zoneToChange(actor, params.id);
    const read = this.readImport(zone, params.text);
    const first = this.planImport(read, await dnsRepository.list(this.db, zone.serviceId), params);
    if (first.added.length + first.changed.length + first.removed.length === 0) {
      return { value: { plan: first, applied: false }, published: true };
    }
    let plan = first;
    const changed = await this.changes.rewrite(zone, { kind: 'import', ...by(actor) }, async (trx, before) => {
      plan = this.planImport(read, before, params);
      await dnsRepository.deleteIds(
        trx,
        zone.serviceId,
        plan.removed.map((row) => row.id),
      );
      for (const { record, before: row } of plan.changed) {
        const { ttl, priority, value } = record;
        // Only its RRset's TTL: the record keeps the value it follows (a restored default's).
        if (value === row.value && priority === row.priority)
          await dnsRepository.setTtl(trx, zone.serviceId, [row.id], ttl);
        else await dnsRepository.update(trx, zone.serviceId, row.id, { ttl, priority, value });
      }
      await dnsRepository.insertMany(
        trx,
        plan.added.map((record) => this.changes.row(zone, record)),
      );
    });
    return { value: { plan, applied: true }, published: changed.published };
  }

  /** What the import offers this zone's user (the right to change the zone is needed). */
  async importOptions(actor: Actor, serviceId: number): Promise<DnsImportOptionsData> {
    await this.changes.authorized(actor, serviceId, 'action');
    const axfr = (this.changes.settings.importAxfr ?? 'off') !== 'off';
    return { axfr, maxText: DNS_IMPORT_MAX_TEXT, maxRecords: DNS_IMPORT_MAX_RECORDS };
  }

  /**
   * The zone as another name server serves it (AXFR), as master-file text, where the provider
   * allows it; nothing is changed (the text is previewed and applied like a pasted file).
   */
  async importAxfr(actor: Actor, params: DnsImportAxfrParams): Promise<string> {
    const zone = await this.changes.authorized(actor, params.id, 'action');
    const setting = this.changes.settings.importAxfr ?? 'off';
    if (setting === 'off') throw new ForbiddenError('dns.import.axfr_off');
    const server = nameServerOf(params.server);
    if (!server) throw FieldErrors.one('server', 'dns.import.axfr_server');
    try {
      return await this.zoneTransfer.read(zone.name, server, {
        allowPrivate: setting === 'any',
        maxBytes: DNS_IMPORT_MAX_TEXT * 4,
      });
    } catch (error) {
      if (!(error instanceof ZoneTransferError)) throw error;
      throw FieldErrors.one('server', `dns.import.axfr_${error.reason}`);
    }
  }

  private readImport(zone: Zone, text: string) {
    const read = readZoneImport(text, zone.name, this.changes.settings.defaultTtl);
    if (read.tooMany) throw FieldErrors.one('text', 'dns.import.too_many');
    return read;
  }

  private planImport(
    read: ReturnType<typeof readZoneImport>,
    existing: DnsRecordRow[],
    choices: { mode: DnsImportMode; conflicts: DnsImportConflictChoice },
  ) {
    const plan = planImport(existing, read.records, choices.mode, this.changes.settings.defaultTtl, choices.conflicts);
    const refused = [...read.refused, ...plan.refused].sort((a, b) => a.line - b.line);
    return { ...plan, refused, kept: read.kept };
  }
}

/**
 * A name server as typed: `host`, `host:port`, an IPv4 or IPv6 address, `[IPv6]:port` (53 by
 * default); undefined when it is none of these. What it may reach is the transfer's to check.
 */
export function nameServerOf(typed: string): { host: string; port: number } | undefined {
  const text = typed.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  const withPort = /^([^:]+):(\d{1,5})$/.exec(text);
  const [host, port] = bracketed
    ? [bracketed[1] as string, bracketed[2] ?? '53']
    : withPort
      ? [withPort[1] as string, withPort[2] as string]
      : [text, '53'];
  const bare = host.replace(/\.$/, '');
  const ipv6 = bare.includes(':') && /^[0-9a-f:.]+$/.test(bare) && canonicalIPv6(bare) !== undefined;
  if (!(ipv6 || (!bracketed && (isIPv4(bare) || isHostName(bare))))) return undefined;
  const number = Number(port);
  return number >= 1 && number <= 65535 ? { host: bare, port: number } : undefined;
}
