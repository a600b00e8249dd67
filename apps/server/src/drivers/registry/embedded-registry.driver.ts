import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { newLocalAuthSecret } from './auth-secret.ts';
import { embeddedRegistryRepository } from './embedded-registry.repository.ts';
import type { RegistryDomain, RegistryDriver } from './registry.driver.ts';

/**
 * The provider as registry of record: the panel database is the registry. Reads read it (the
 * domain, its name servers, status and expiry, the sealed auth secret); changes have nothing to
 * call, since the service writes them in the transaction that calls the driver.
 */
export class EmbeddedRegistryDriver implements RegistryDriver {
  readonly kind = 'embedded' as const;

  constructor(
    private readonly db: Db,
    /** The box the domain service seals auth secrets with. */
    private readonly secrets: SecretBox,
  ) {}

  private row(domain: string) {
    return embeddedRegistryRepository.domain(this.db, domain);
  }

  async readDomain(domain: string): Promise<RegistryDomain | undefined> {
    const row = await this.row(domain);
    if (!row) return undefined;
    const nameservers = await embeddedRegistryRepository.nameservers(this.db, row.resource_id);
    return {
      nameservers: nameservers.map((ns) => ns.host),
      blocked: row.blocked === 1,
      transferBlock: row.transfer_block === 1,
      whoisPrivacy: row.whois_privacy === 1,
      expireTs: row.domain_expire_ts ?? 0,
    };
  }

  async readAuthSecret(domain: string, type: 'authcode' | 'transferkey'): Promise<string> {
    const row = await this.row(domain);
    if (!row || row.auth_type !== type) throw new Error(`no ${type} for ${domain}`);
    return this.secrets.open(row.auth_secret);
  }

  async newAuthSecret(_domain: string, type: 'authcode' | 'transferkey'): Promise<string> {
    return newLocalAuthSecret(type);
  }

  async setNameservers(): Promise<void> {}
  async createHost(): Promise<void> {}
  async updateHost(): Promise<void> {}
  async deleteHost(): Promise<void> {}
  async addDs(): Promise<void> {}
  async removeDs(): Promise<void> {}
  async setStatus(): Promise<void> {}
  async updateContact(): Promise<void> {}
}
