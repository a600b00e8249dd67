import { isActionable } from '@panel247/contract/constants';
import { isHostName, toAsciiName } from '@panel247/contract/dns-rules';
import type { Domain } from '@panel247/contract/domain';
import { NAMESERVERS_MAX, NAMESERVERS_MIN } from '@panel247/contract/domain-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { Db } from '../../db/database.ts';
import type { DsRecord } from '../../drivers/dns/dns.driver.ts';
import type { HostResolver } from '../../drivers/registry/host-resolver.ts';
import type { RegistryDriver } from '../../drivers/registry/registry.driver.ts';
import { type FieldError, FieldErrors } from '../../errors.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import { changedFields } from '../activity/activity-summary.ts';
import type { Actor } from '../auth/actor.ts';
import { domainRepository } from './domain.repository.ts';
import type { DomainContext, DomainService, DomainSettings } from './domain.service.ts';

/** A domain's name servers at the registry: the provider's (with a hosting service) or typed ones that resolve. */
export class DomainNameServerService {
  constructor(
    private readonly db: Db,
    private readonly domains: DomainService,
    private readonly registry: RegistryDriver,
    private readonly resolver: HostResolver,
    private readonly settings: DomainSettings,
    /** The hosted zones' signing keys as the DNS server holds them (read only). */
    private readonly zones: { signedDs(zone: string): Promise<DsRecord[]> } = { signedDs: async () => [] },
  ) {}

  async init(actor: Actor, id: number) {
    const ctx = await this.domains.context(actor, id, 'domain_dns', 'visible');
    const nameservers = (await this.domains.registryState(ctx)).nameservers;
    return {
      domainDNSs: nameservers,
      hasService: await this.domains.hasService(id),
      defaultDNSs: this.settings.defaultNameservers,
      mode: ctx.row.dns_mode,
      dsRecords: (await this.dsAtStake(ctx, nameservers)).length,
      canRemoveDs: isActionable(ctx.resource.levels.domain_dnssec),
      // Only an offer: a DNS server that cannot be asked now simply offers nothing.
      zoneDsRecords: (await this.zoneDsToPublish(ctx).catch(() => [])).length,
    };
  }

  /** The signed hosted zone's SHA-256 DS the registry does not have yet (none without a hosting service). */
  private async zoneDsToPublish(ctx: DomainContext): Promise<DsRecord[]> {
    if (!(await this.domains.hasService(ctx.resource.id))) return [];
    const signed = await this.zones.signedDs(ctx.resource.referencePunycode);
    const existing = await domainRepository.dsRecords(this.db, ctx.resource.id);
    return signed.filter((ds) => ds.digestType === 2 && !existing.some((row) => row.digest === ds.digest));
  }

  /** Whether a set of name servers is the provider's own (order and case aside). */
  private isProviders(hosts: string[]): boolean {
    const own = new Set(this.settings.defaultNameservers.map((h) => h.toLowerCase().replace(/\.$/, '')));
    return hosts.length === own.size && hosts.every((h) => own.has(h.toLowerCase().replace(/\.$/, '')));
  }

  /**
   * The DS records a move away from the provider's name servers would strand: the registry's DS
   * point at keys only the provider's servers sign with. None while the servers are already
   * someone else's (their DS are that operator's business).
   */
  private async dsAtStake(ctx: DomainContext, current: string[]) {
    if (!this.isProviders(current)) return [];
    return domainRepository.dsRecords(this.db, ctx.resource.id);
  }

  /**
   * New name servers. Moving away from the provider's while DS records exist removes them in the
   * same change unless `ds` is `keep` (validating resolvers would otherwise stop resolving the
   * domain); removing them needs the DNSSEC right too. Answers how many DS records went.
   */
  async edit(
    actor: Actor,
    id: number,
    useDefaults: boolean,
    typed: string[],
    ds: 'remove' | 'keep' = 'remove',
    publishDs = true,
  ): Promise<{ domain: Domain; dsRemoved: number; dsPublished: number }> {
    const ctx = await this.domains.context(actor, id, 'domain_dns', 'action');
    let hosts: string[];
    if (useDefaults) {
      if (!(await this.domains.hasService(id)))
        throw FieldErrors.one('default-ns', 'domain.error.defaults_need_service');
      hosts = this.settings.defaultNameservers;
    } else {
      hosts = await this.check(typed);
    }
    const current = (await this.domains.registryState(ctx)).nameservers;
    noteChangeDetail(actor.activity, {
      changes: changedFields({ nameservers: current }, { nameservers: hosts }),
    });
    const stranded = this.isProviders(hosts) ? [] : await this.dsAtStake(ctx, current);
    const removing = ds === 'remove' ? stranded : [];
    if (removing.length > 0 && !isActionable(ctx.resource.levels.domain_dnssec)) {
      throw FieldErrors.one('ds', 'domain.error.ds_remove_forbidden');
    }
    // Back on the provider's servers with the hosted zone signed: its DS can go to the registry
    // with the same change (an offer: only for who may change the DNSSEC records).
    const publishing =
      useDefaults && publishDs && isActionable(ctx.resource.levels.domain_dnssec)
        ? await this.zoneDsToPublish(ctx)
        : [];
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.setNameservers(trx, id, hosts);
      await domainRepository.update(trx, id, { dns_mode: useDefaults ? 'defaultDNS' : 'setDNS' });
      for (const row of removing) await domainRepository.deleteDs(trx, id, row.id);
      // The DS go first: for a moment the domain is unsigned under the old servers (it resolves),
      // never signed under the new ones (it would not).
      if (removing.length > 0) {
        await this.registry.removeDs(
          ctx.resource.referencePunycode,
          removing.map((row) => ({
            keytag: row.keytag,
            algorithm: row.algorithm,
            digestType: row.digest_type,
            digest: row.digest,
          })),
        );
      }
      const glue = await domainRepository.glueRecords(trx, id);
      await this.registry.setNameservers(ctx.resource.referencePunycode, hosts, glue);
      // The servers first, then the DS: for a moment the domain is unsigned under servers that
      // sign (it resolves), never signed under servers that do not.
      for (const record of publishing) {
        await domainRepository.insertDs(trx, {
          resource_id: id,
          keytag: record.keytag,
          algorithm: record.algorithm,
          digest_type: record.digestType,
          digest: record.digest,
        });
      }
      if (publishing.length > 0) await this.registry.addDs(ctx.resource.referencePunycode, publishing);
    });
    return {
      domain: await this.domains.toDomain({
        ...ctx,
        row: { ...ctx.row, dns_mode: useDefaults ? 'defaultDNS' : 'setDNS' },
      }),
      dsRemoved: removing.length,
      dsPublished: publishing.length,
    };
  }

  /** 2 to 7 distinct host names, each resolving to an address; errors name the row (`dns[N]`). */
  private async check(typed: string[]): Promise<string[]> {
    // Control characters are refused before anything is trimmed away (a trailing CR/LF included).
    const rows = typed.map((value) =>
      hasControlCharacters(value) ? '\u0000' : value.trim().toLowerCase().replace(/\.$/, ''),
    );
    // The first two rows are fixed and required, even when they were not sent at all; empty rows
    // after them are simply unused rows of the form.
    while (rows.length < NAMESERVERS_MIN) rows.push('');
    const used = rows.filter((value, index) => value !== '' || index < NAMESERVERS_MIN);
    const errors: FieldError[] = [];
    if (used.length > NAMESERVERS_MAX) errors.push({ field: 'dns', messageKey: 'domain.error.ns_count' });
    const seen = new Set<string>();
    const checks = used.map(async (value, index) => {
      const field = `dns[${rows.indexOf(value, index)}]`;
      const ascii = toAsciiName(value);
      if (value === '') return errors.push({ field: `dns[${index}]`, messageKey: 'validation.required' });
      if (!ascii || !isHostName(ascii)) return errors.push({ field, messageKey: 'domain.error.ns_invalid' });
      if (seen.has(ascii)) return errors.push({ field, messageKey: 'domain.error.ns_duplicate' });
      seen.add(ascii);
      if (!(await this.resolver.resolves(ascii))) errors.push({ field, messageKey: 'domain.error.ns_unresolved' });
    });
    await Promise.all(checks);
    if (errors.length > 0) {
      errors.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));
      throw new FieldErrors(errors);
    }
    return used.map((value) => toAsciiName(value) as string);
  }
}
