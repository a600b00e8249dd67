import { canonicalIPv6, isHostName, toAsciiName } from '@panel247/contract/dns-rules';
import type { GlueRecord } from '@panel247/contract/domain';
import { isFullIp } from '@panel247/contract/domain-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { Db } from '../../db/database.ts';
import type { RegistryDriver } from '../../drivers/registry/registry.driver.ts';
import { type FieldError, FieldErrors, NotFoundError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { domainRepository } from './domain.repository.ts';
import type { DomainService } from './domain.service.ts';

/** Glue records: the addresses of name servers that lie under the domain itself, held by the registry. */
export class DomainGlueService {
  constructor(
    private readonly db: Db,
    private readonly domains: DomainService,
    private readonly registry: RegistryDriver,
  ) {}

  async list(actor: Actor, id: number): Promise<GlueRecord[]> {
    await this.domains.context(actor, id, 'domain_gluerecords', 'visible');
    return this.rows(id);
  }

  private async rows(id: number): Promise<GlueRecord[]> {
    return (await domainRepository.glueRecords(this.db, id)).map((row) => ({
      id: row.id,
      name: row.name,
      ip: row.ipv4,
      ipv6: row.ipv6,
    }));
  }

  private checkGlueAddresses(ip: string, ipv6: string): { ipv4: string; ipv6: string } {
    const errors: FieldError[] = [];
    if (!isFullIp(ip)) errors.push({ field: 'ip', messageKey: 'domain.error.ip' });
    const v6 = ipv6.trim() === '' ? '' : canonicalIPv6(ipv6.trim());
    if (v6 === undefined) errors.push({ field: 'ipv6', messageKey: 'dns.error.ipv6' });
    if (errors.length > 0) throw new FieldErrors(errors);
    // Stored without leading zeros, the way DNS writes addresses.
    return { ipv4: ip.split('.').map(Number).join('.'), ipv6: v6 ?? '' };
  }

  async create(actor: Actor, id: number, params: { name: string; ip: string; ipv6: string }): Promise<GlueRecord[]> {
    const ctx = await this.domains.context(actor, id, 'domain_gluerecords', 'action');
    const zone = ctx.resource.referencePunycode;
    // "ns1" is relative to the domain; a name ending in a dot is absolute and must lie under it.
    const absolute = params.name.trim().endsWith('.');
    const typed = params.name.trim().toLowerCase().replace(/\.$/, '');
    const ascii = hasControlCharacters(params.name) ? undefined : toAsciiName(typed);
    const under = (name: string) => name === zone || name.endsWith(`.${zone}`);
    const full = !ascii ? undefined : under(ascii) ? ascii : absolute ? undefined : `${ascii}.${zone}`;
    const nameError =
      typed === ''
        ? 'validation.required'
        : !full || full === zone || !isHostName(full) || full.length > 253
          ? 'domain.error.glue_name'
          : undefined;
    const addresses = (() => {
      try {
        return this.checkGlueAddresses(params.ip, params.ipv6);
      } catch (error) {
        if (nameError && error instanceof FieldErrors) {
          throw new FieldErrors([{ field: 'name', messageKey: nameError }, ...error.fields]);
        }
        throw error;
      }
    })();
    if (nameError || !full) throw FieldErrors.one('name', nameError ?? 'domain.error.glue_name');
    if ((await domainRepository.glueRecords(this.db, id)).some((row) => row.name === full)) {
      throw FieldErrors.one('name', 'domain.error.glue_duplicate');
    }
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.insertGlue(trx, { resource_id: id, name: full, ...addresses });
      await this.registry.createHost(zone, full, addresses.ipv4, addresses.ipv6);
    });
    return this.rows(id);
  }

  async save(actor: Actor, id: number, glueId: number, params: { ip: string; ipv6: string }) {
    const ctx = await this.domains.context(actor, id, 'domain_gluerecords', 'action');
    const glue = await domainRepository.findGlue(this.db, id, glueId);
    if (!glue) throw new NotFoundError();
    const addresses = this.checkGlueAddresses(params.ip, params.ipv6);
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.updateGlue(trx, id, glueId, addresses);
      await this.registry.updateHost(ctx.resource.referencePunycode, glue.name, addresses.ipv4, addresses.ipv6);
    });
    return this.rows(id);
  }

  async remove(actor: Actor, id: number, glueId: number) {
    const ctx = await this.domains.context(actor, id, 'domain_gluerecords', 'action');
    const glue = await domainRepository.findGlue(this.db, id, glueId);
    if (!glue) throw new NotFoundError();
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.deleteGlue(trx, id, glueId);
      await this.registry.deleteHost(ctx.resource.referencePunycode, glue.name);
    });
    return this.rows(id);
  }
}
