import type { PermissionKey } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import type { RegistryDriver } from '../../drivers/registry/registry.driver.ts';
import { NotFoundError } from '../../errors.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import type { Actor } from '../auth/actor.ts';
import { domainRepository } from './domain.repository.ts';
import type { DomainService } from './domain.service.ts';

/** A domain's status flags at the registry (blocked, transfer block, whois privacy) and its transfer secret. */
export class DomainStatusService {
  constructor(
    private readonly db: Db,
    private readonly domains: DomainService,
    private readonly registry: RegistryDriver,
  ) {}

  async toggle(actor: Actor, id: number, flag: 'blocked' | 'transfer_block' | 'whois_privacy') {
    const key: PermissionKey = flag === 'transfer_block' ? 'domain_transferblock' : 'domain_others';
    const ctx = await this.domains.context(actor, id, key, 'action');
    // The registry's current status is what gets flipped.
    const current = await this.domains.registryState(ctx);
    const status = {
      blocked: current.blocked,
      transferBlock: current.transferBlock,
      whoisPrivacy: current.whoisPrivacy,
    };
    const field = ({ blocked: 'blocked', transfer_block: 'transferBlock', whois_privacy: 'whoisPrivacy' } as const)[
      flag
    ];
    status[field] = !status[field];
    noteChangeDetail(actor.activity, {
      changes: [{ field, before: String(!status[field]), after: String(status[field]) }],
    });
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.update(trx, id, { [flag]: status[field] ? 1 : 0 });
      await this.registry.setStatus(ctx.resource.referencePunycode, status);
    });
    return { domain: await this.domains.toDomain(ctx) };
  }

  async transferSecret(actor: Actor, id: number, type: 'authcode' | 'transferkey'): Promise<string> {
    const ctx = await this.domains.context(actor, id, 'domain_authcode', 'visible');
    if (ctx.row.auth_type !== type) throw new NotFoundError();
    return this.registry.readAuthSecret(ctx.resource.referencePunycode, type);
  }
}
