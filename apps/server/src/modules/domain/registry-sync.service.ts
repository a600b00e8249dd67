import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { RegistryDriver, RegistryRecord } from '../../drivers/registry/registry.driver.ts';
import { domainRepository } from './domain.repository.ts';
import type { DomainService } from './domain.service.ts';
import { matchDsRows } from './ds-rows.ts';
import { type Drift, driftOf, type PanelCopy } from './registry-drift.ts';
import { registrySyncRepository } from './registry-sync.repository.ts';

/** One domain's outcome: in step, drifted (imported unless a dry run), unknown to its registry, or not read. */
export interface SyncOutcome {
  domain: string;
  outcome: 'same' | 'drifted' | 'missing' | 'failed';
  drifts: Drift[];
  /** A failure's message. */
  detail: string;
}

type DomainResource = Awaited<ReturnType<typeof registrySyncRepository.domainResources>>[number];

/**
 * `panel registry sync [--dry-run]`: every domain the panel holds is read at its registry and
 * compared with the panel's copy (name servers, locks, whois privacy, DS, glue, auth code,
 * expiry). What differs is reported and, unless it is a dry run, the registry's data replaces the
 * panel's, one domain per transaction. Domains are read `concurrency` at a time: the registry's
 * sessions and rate limit (the pool) pace them.
 */
export class RegistrySyncService {
  constructor(
    private readonly db: Db,
    private readonly domains: DomainService,
    private readonly registry: RegistryDriver,
    private readonly secrets: SecretBox,
    private readonly settings: { defaultNameservers: string[] },
  ) {}

  /** Whether there is anything apart from the panel to compare with (not the embedded registry). */
  get available(): boolean {
    return this.registry.readRecord !== undefined;
  }

  async syncAll(options: { dryRun: boolean; concurrency?: number }): Promise<SyncOutcome[]> {
    const resources = await registrySyncRepository.domainResources(this.db);
    const outcomes: SyncOutcome[] = new Array(resources.length);
    let next = 0;
    const worker = async () => {
      while (next < resources.length) {
        const index = next++;
        outcomes[index] = await this.syncOne(resources[index] as DomainResource, options.dryRun);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
    return outcomes;
  }

  private async syncOne(resource: DomainResource, dryRun: boolean): Promise<SyncOutcome> {
    const domain = resource.reference_punycode;
    const result = (outcome: SyncOutcome['outcome'], drifts: Drift[] = [], detail = '') => ({
      domain,
      outcome,
      drifts,
      detail,
    });
    try {
      const record = await this.registry.readRecord?.(domain);
      if (!record) return result('missing');
      const drifts = driftOf(await this.panelCopy(resource), record);
      if (drifts.length === 0) return result('same');
      if (!dryRun) await this.importRecord(resource, record, drifts);
      return result('drifted', drifts);
    } catch (error) {
      return result('failed', [], error instanceof Error ? error.message : String(error));
    }
  }

  private async panelCopy(resource: DomainResource): Promise<PanelCopy> {
    const row = await domainRepository.find(this.db, resource.id);
    const [nameservers, ds, glue] = await Promise.all([
      domainRepository.nameservers(this.db, resource.id),
      domainRepository.dsRecords(this.db, resource.id),
      domainRepository.glueRecords(this.db, resource.id),
    ]);
    return {
      nameservers: row ? nameservers : [],
      blocked: row?.blocked === 1,
      transferBlock: row?.transfer_block === 1,
      whoisPrivacy: row?.whois_privacy === 1,
      ds: ds.map((d) => ({ keytag: d.keytag, algorithm: d.algorithm, digestType: d.digest_type, digest: d.digest })),
      authInfo: row ? this.secrets.open(row.auth_secret) : '',
      glue: glue.map((g) => ({ name: g.name, ipv4: g.ipv4, ipv6: g.ipv6 })),
      expireTs: Number(resource.domain_expire_ts ?? 0),
    };
  }

  /** The registry's data becomes the panel's copy, in one transaction (DS and glue rows that stay keep their ids). */
  private async importRecord(resource: DomainResource, record: RegistryRecord, drifts: Drift[]): Promise<void> {
    const id = resource.id;
    await this.domains.ensureDomain(id, resource.reference_punycode, resource.account_id, {
      hasService: resource.has_service === 1,
    });
    const changed = new Set(drifts.map((d) => d.field));
    const defaults = new Set(this.settings.defaultNameservers.map((h) => h.toLowerCase()));
    const onDefaults =
      record.nameservers.length === defaults.size && record.nameservers.every((h) => defaults.has(h.toLowerCase()));
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.update(trx, id, {
        blocked: record.blocked ? 1 : 0,
        transfer_block: record.transferBlock ? 1 : 0,
        whois_privacy: record.whoisPrivacy ? 1 : 0,
        ...(changed.has('authCode') ? { auth_secret: this.secrets.seal(record.authInfo) } : {}),
        ...(changed.has('nameservers') ? { dns_mode: onDefaults ? 'defaultDNS' : 'setDNS' } : {}),
      });
      if (changed.has('nameservers')) await domainRepository.setNameservers(trx, id, record.nameservers);
      if (changed.has('expiry')) await registrySyncRepository.setExpiry(trx, id, record.expireTs);
      if (changed.has('ds')) await matchDsRows(trx, id, record.ds);
      if (changed.has('glue')) {
        const rows = await domainRepository.glueRecords(trx, id);
        for (const row of rows) {
          const theirs = record.glue.find((g) => g.name === row.name);
          if (!theirs) await domainRepository.deleteGlue(trx, id, row.id);
          else if (theirs.ipv4 !== row.ipv4 || theirs.ipv6 !== row.ipv6)
            await domainRepository.updateGlue(trx, id, row.id, { ipv4: theirs.ipv4, ipv6: theirs.ipv6 });
        }
        for (const glue of record.glue.filter((g) => !rows.some((r) => r.name === g.name)))
          await domainRepository.insertGlue(trx, { resource_id: id, ...glue });
      }
    });
  }
}
