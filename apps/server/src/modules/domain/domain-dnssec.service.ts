import { isActionable, isVisible } from '@panel247/contract/constants';
import type { DnssecEntry } from '@panel247/contract/domain';
import {
  DNSSEC_ALGORITHMS,
  DNSSEC_DIGEST_LENGTHS,
  DNSSEC_DIGEST_TYPES,
  DNSSEC_FLAGS,
  DNSSEC_PROTOCOLS,
} from '@panel247/contract/domain-rules';
import type { Db } from '../../db/database.ts';
import type { DsRecord } from '../../drivers/dns/dns.driver.ts';
import type { RegistryDriver, RegistryDs } from '../../drivers/registry/registry.driver.ts';
import { type FieldError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { decodePublicKey, dnskeyRdata, dsDigestSha256, keyTag } from './dnssec-keys.ts';
import { domainRepository } from './domain.repository.ts';
import type { DomainContext, DomainService } from './domain.service.ts';
import { matchDsRows } from './ds-rows.ts';

/** The service zones hosted here, as far as a domain's DNSSEC needs them (the DNS service). */
export interface HostedZones {
  /** Whether the DNS server signs hosted zones, so their DS records can be offered in one click. */
  readonly signsZones: boolean;
  /** The DS records of a service's zone; the zone is created and signed first when needed. */
  dsRecordsOf(serviceId: number, reference: string, referencePunycode: string): Promise<DsRecord[]>;
}

/** A domain's DS records at the registry: typed as a digest or a public key, or taken from the hosted zone. */
export class DomainDnssecService {
  constructor(
    private readonly db: Db,
    private readonly domains: DomainService,
    private readonly registry: RegistryDriver,
    private readonly zones: HostedZones,
  ) {}

  private async dsRows(id: number): Promise<DnssecEntry[]> {
    return (await domainRepository.dsRecords(this.db, id)).map((row) => ({
      id: row.id,
      keytag: row.keytag,
      algorithm: row.algorithm,
      digesttype: row.digest_type,
      digest: row.digest,
    }));
  }

  /**
   * The DS records as the registry holds them: a registry apart from the panel (EPP) is read, and
   * the panel's rows follow it (a DS added or removed at the registry behind the panel's back
   * shows); the embedded registry's rows are the panel's own.
   */
  async list(actor: Actor, id: number) {
    const ctx = await this.domains.context(actor, id, 'domain_dnssec', 'visible');
    const { ds } = await this.domains.registryState(ctx);
    if (ds) await this.db.transaction().execute((trx) => matchDsRows(trx, id, ds));
    return this.dsRows(id);
  }

  async createInit(actor: Actor, id: number) {
    const ctx = await this.domains.context(actor, id, 'domain_dnssec', 'visible');
    const asStrings = (map: Record<number, string>) => Object.fromEntries(Object.entries(map));
    return {
      type: ctx.row.dnssec_type as 'digest' | 'pubkey',
      algorithms: asStrings(DNSSEC_ALGORITHMS),
      digestTypes: asStrings(DNSSEC_DIGEST_TYPES),
      flags: asStrings(DNSSEC_FLAGS),
      protocols: asStrings(DNSSEC_PROTOCOLS),
      // Offered only to whom may also change the hosted zone (signing it is a change to it).
      zoneKeysAvailable:
        this.zones.signsZones &&
        (await this.domains.hasService(id)) &&
        isActionable(ctx.resource.levels.service_dnszone),
    };
  }

  async create(
    actor: Actor,
    id: number,
    params: {
      keytag?: number;
      algorithm?: number;
      digesttype?: number;
      flags?: number;
      protocols?: number;
      digest: string;
    },
  ): Promise<DnssecEntry[]> {
    const ctx = await this.domains.context(actor, id, 'domain_dnssec', 'action');
    const errors: FieldError[] = [];
    const algorithm = params.algorithm;
    if (algorithm === undefined || !(algorithm in DNSSEC_ALGORITHMS)) {
      errors.push({ field: 'algorithm', messageKey: 'domain.error.algorithm' });
    }
    let ds: { keytag: number; algorithm: number; digestType: number; digest: string };
    if (ctx.row.dnssec_type === 'pubkey') {
      if (params.flags !== 256 && params.flags !== 257)
        errors.push({ field: 'flags', messageKey: 'domain.error.flags' });
      if (params.protocols !== 3) errors.push({ field: 'protocols', messageKey: 'domain.error.protocol' });
      const key = decodePublicKey(params.digest);
      if (!key) errors.push({ field: 'digest', messageKey: 'domain.error.public_key' });
      if (algorithm === 1) errors.push({ field: 'algorithm', messageKey: 'domain.error.algorithm' });
      if (errors.length > 0 || !key) throw new FieldErrors(errors);
      const rdata = dnskeyRdata(params.flags as number, 3, algorithm as number, key);
      ds = {
        keytag: keyTag(rdata),
        algorithm: algorithm as number,
        digestType: 2,
        digest: dsDigestSha256(ctx.resource.referencePunycode, rdata),
      };
    } else {
      const keytag = params.keytag;
      if (keytag === undefined || keytag < 0 || keytag > 65535)
        errors.push({ field: 'keytag', messageKey: 'domain.error.keytag' });
      const digestType = params.digesttype;
      const wanted = digestType === undefined ? undefined : DNSSEC_DIGEST_LENGTHS[digestType];
      if (wanted === undefined) errors.push({ field: 'digesttype', messageKey: 'domain.error.digest_type' });
      const digest = params.digest.trim().toLowerCase();
      if (digest === '') errors.push({ field: 'digest', messageKey: 'validation.required' });
      else if (wanted !== undefined && !new RegExp(`^[0-9a-f]{${wanted}}$`).test(digest)) {
        errors.push({ field: 'digest', messageKey: 'domain.error.digest_length' });
      }
      if (errors.length > 0) throw new FieldErrors(errors);
      ds = { keytag: keytag as number, algorithm: algorithm as number, digestType: digestType as number, digest };
    }
    return [await this.addDs(ctx, ds)];
  }

  private async addDs(
    ctx: DomainContext,
    ds: { keytag: number; algorithm: number; digestType: number; digest: string },
  ) {
    const existing = await domainRepository.dsRecords(this.db, ctx.resource.id);
    if (existing.some((row) => row.digest === ds.digest && row.digest_type === ds.digestType)) {
      throw FieldErrors.one('digest', 'domain.error.ds_duplicate');
    }
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await domainRepository.insertDs(trx, {
        resource_id: ctx.resource.id,
        keytag: ds.keytag,
        algorithm: ds.algorithm,
        digest_type: ds.digestType,
        digest: ds.digest,
      });
      await this.registry.addDs(ctx.resource.referencePunycode, [ds]);
      return inserted;
    });
    return {
      id: row.id,
      keytag: row.keytag,
      algorithm: row.algorithm,
      digesttype: row.digest_type,
      digest: row.digest,
    };
  }

  /**
   * Beyond the spec: the DS records of the zone PowerDNS signs for this domain, in one click. It
   * signs (and, for a service whose DNS view was never opened, creates) the hosted zone, so it
   * needs the zone's right too: `service_dnszone` action on the same resource.
   */
  async fromZone(actor: Actor, id: number): Promise<DnssecEntry[]> {
    const ctx = await this.domains.context(actor, id, 'domain_dnssec', 'action');
    if (!this.zones.signsZones || !(await this.domains.hasService(id))) throw new NotFoundError();
    const zoneLevel = ctx.resource.levels.service_dnszone;
    if (!isVisible(zoneLevel)) throw new NotFoundError();
    if (!isActionable(zoneLevel)) throw new ForbiddenError();
    const zoneDs = await this.zones.dsRecordsOf(id, ctx.resource.reference, ctx.resource.referencePunycode);
    const existing = await domainRepository.dsRecords(this.db, id);
    const added: DnssecEntry[] = [];
    for (const ds of zoneDs.filter((d) => d.digestType === 2)) {
      if (existing.some((row) => row.digest === ds.digest)) continue;
      added.push(await this.addDs(ctx, ds));
    }
    return added;
  }

  /** The DS records the registry holds for the domain, without an actor (its caller authorized). */
  async registryDs(id: number): Promise<RegistryDs[]> {
    return (await domainRepository.dsRecords(this.db, id)).map((row) => ({
      keytag: row.keytag,
      algorithm: row.algorithm,
      digestType: row.digest_type,
      digest: row.digest,
    }));
  }

  /**
   * Makes the registry hold exactly `wanted` for the domain (none: every DS removed), in one
   * transaction with the registry's removals and additions, without an actor: the unsigning job
   * and the CDS scan call it after their own checks. Answers what was removed and added.
   */
  async replaceDs(
    id: number,
    domain: string,
    wanted: RegistryDs[],
  ): Promise<{ removed: RegistryDs[]; added: RegistryDs[] }> {
    const same = (a: RegistryDs, b: RegistryDs) =>
      a.keytag === b.keytag && a.algorithm === b.algorithm && a.digestType === b.digestType && a.digest === b.digest;
    return this.db.transaction().execute(async (trx) => {
      const rows = await domainRepository.dsRecords(trx, id);
      const current = rows.map((row) => ({
        id: row.id,
        keytag: row.keytag,
        algorithm: row.algorithm,
        digestType: row.digest_type,
        digest: row.digest,
      }));
      const removed = current.filter((ds) => !wanted.some((w) => same(ds, w)));
      const added = wanted.filter((w) => !current.some((ds) => same(ds, w)));
      for (const ds of removed) await domainRepository.deleteDs(trx, id, ds.id);
      for (const ds of added) {
        await domainRepository.insertDs(trx, {
          resource_id: id,
          keytag: ds.keytag,
          algorithm: ds.algorithm,
          digest_type: ds.digestType,
          digest: ds.digest,
        });
      }
      const plain = ({ keytag, algorithm, digestType, digest }: RegistryDs) => ({
        keytag,
        algorithm,
        digestType,
        digest,
      });
      if (removed.length > 0) await this.registry.removeDs(domain, removed.map(plain));
      if (added.length > 0) await this.registry.addDs(domain, added.map(plain));
      return { removed: removed.map(plain), added };
    });
  }

  /**
   * The hosted zone's DS published at the registry (`fromZone`) — only while the domain is
   * delegated to the provider's name servers: a DS for a zone the delegated servers do not sign
   * would make every validating resolver refuse the domain. Answers whether it was published.
   */
  async publishZoneDs(actor: Actor, id: number): Promise<boolean> {
    const ctx = await this.domains.context(actor, id, 'domain_dnssec', 'action');
    if (ctx.row.dns_mode !== 'defaultDNS') return false;
    await this.fromZone(actor, id);
    return true;
  }

  async remove(actor: Actor, id: number, dnssecId: number) {
    const ctx = await this.domains.context(actor, id, 'domain_dnssec', 'action');
    const ds = await domainRepository.findDs(this.db, id, dnssecId);
    if (!ds) throw new NotFoundError();
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.deleteDs(trx, id, dnssecId);
      await this.registry.removeDs(ctx.resource.referencePunycode, [
        { keytag: ds.keytag, algorithm: ds.algorithm, digestType: ds.digest_type, digest: ds.digest },
      ]);
    });
    return this.dsRows(id);
  }
}
