import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { SecretBox } from '../../src/crypto/secret-box.ts';
import { createRegistryDriver } from '../../src/drivers/registry/create-registry-driver.ts';
import type { RegistryDomain, RegistryDriver } from '../../src/drivers/registry/registry.driver.ts';
import type { Actor } from '../../src/modules/auth/actor.ts';
import { DomainService } from '../../src/modules/domain/domain.service.ts';
import { DomainNameServerService } from '../../src/modules/domain/domain-nameserver.service.ts';
import { DomainStatusService } from '../../src/modules/domain/domain-status.service.ts';
import { PermissionService } from '../../src/modules/permission/permission.service.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

const now = () => 1_700_000_000;

describe('registry driver from the configuration', () => {
  it('is the embedded one by default and by name', () => {
    const base = { PANEL_DATA_DIR: '/nonexistent' };
    for (const env of [base, { ...base, PANEL_REGISTRY_DRIVER: 'embedded' }]) {
      expect(loadConfig(env).registry.driver).toBe('embedded');
    }
  });

  it('refuses a driver that does not exist, naming the variable', () => {
    expect(loadConfig({ PANEL_DATA_DIR: '/nonexistent', PANEL_REGISTRY_DRIVER: 'epp' }).registry.driver).toBe('epp');
    const load = () => loadConfig({ PANEL_DATA_DIR: '/nonexistent', PANEL_REGISTRY_DRIVER: 'rrp' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/registry\.driver \(PANEL_REGISTRY_DRIVER\)/);
  });
});

/** A registry whose answers differ from the panel's tables: what an EPP registry would be. */
class RemoteLikeRegistry implements RegistryDriver {
  readonly kind = 'epp' as const;
  state: RegistryDomain = {
    nameservers: ['a.registry.test', 'b.registry.test'],
    blocked: true,
    transferBlock: false,
    whoisPrivacy: false,
    expireTs: 1_900_000_000,
  };
  statusSent: unknown[] = [];
  async readDomain(): Promise<RegistryDomain> {
    return { ...this.state };
  }
  async readAuthSecret(): Promise<string> {
    return 'FROM-THE-REGISTRY';
  }
  async newAuthSecret(): Promise<string> {
    return 'NEW-SECRET';
  }
  async setNameservers(): Promise<void> {}
  async createHost(): Promise<void> {}
  async updateHost(): Promise<void> {}
  async deleteHost(): Promise<void> {}
  async addDs(): Promise<void> {}
  async removeDs(): Promise<void> {}
  async updateContact(): Promise<void> {}
  async setStatus(_domain: string, flags: Omit<RegistryDomain, 'nameservers' | 'expireTs'>): Promise<void> {
    this.statusSent.push(flags);
    Object.assign(this.state, flags);
  }
}

describe.each(DATABASE_KINDS)('registry driver reads on %s', (kind) => {
  let database: TestDatabase;
  let account: BuiltAccount;
  let actor: Actor;
  let id: number;
  const secrets = new SecretBox(Buffer.alloc(32, 3), 'domain-auth');

  const domainService = (registry: RegistryDriver) => {
    const settings = { defaultNameservers: ['ns1.provider.test', 'ns2.provider.test'] };
    const domain = new DomainService(database.db, registry, new PermissionService(database.db), secrets, settings, now);
    return {
      domain,
      nameServers: new DomainNameServerService(database.db, domain, registry, { resolves: async () => true }, settings),
      status: new DomainStatusService(database.db, domain, registry),
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    account = await buildAccount(database.db, { domainName: 'registry.test' });
    id = account.resources['registry.test'] as number;
    actor = {
      userId: account.userId,
      accountId: account.accountId,
      brandId: 0,
      username: account.username,
      domainName: account.domainName,
      sessionId: 'test',
      sessionCreatedAt: 0,
      previousLoginAt: null,
    };
  });
  afterAll(() => database?.destroy());

  it('the embedded registry reads the panel database: name servers, status, expiry, auth code', async () => {
    const registry = createRegistryDriver(loadConfig({}, { dataDir: '/nonexistent' }), {
      db: database.db,
      authSecrets: secrets,
      registries: async () => [],
      now,
    });
    expect(registry.kind).toBe('embedded');
    const domains = domainService(registry);
    expect(await registry.readDomain('registry.test')).toBeUndefined();
    const shown = await domains.domain.get(actor, id, 'es');
    expect(await registry.readDomain('registry.test')).toEqual({
      nameservers: ['ns1.provider.test', 'ns2.provider.test'],
      blocked: false,
      transferBlock: false,
      whoisPrivacy: false,
      expireTs: 2_000_000_000,
    });
    expect(shown.domain).toMatchObject({
      expireTS: 2_000_000_000,
      dns: { servers: ['ns1.provider.test', 'ns2.provider.test'] },
    });
    await domains.status.toggle(actor, id, 'whois_privacy');
    expect((await registry.readDomain('registry.test'))?.whoisPrivacy).toBe(true);
    const code = await registry.readAuthSecret('registry.test', 'authcode');
    expect(code).toMatch(/^\S{12,}$/);
    expect(await domains.status.transferSecret(actor, id, 'authcode')).toBe(code);
    await expect(registry.readAuthSecret('registry.test', 'transferkey')).rejects.toThrow();
  });

  it('the domain service shows and flips what the registry says, not its own tables', async () => {
    const registry = new RemoteLikeRegistry();
    const domains = domainService(registry);
    const shown = await domains.domain.get(actor, id, 'es');
    expect(shown.domain).toMatchObject({
      dns: { servers: ['a.registry.test', 'b.registry.test'] },
      blocked: true,
      whoisPrivacy: false,
      expireTS: 1_900_000_000,
    });
    expect((await domains.nameServers.init(actor, id)).domainDNSs).toEqual(['a.registry.test', 'b.registry.test']);
    expect(await domains.status.transferSecret(actor, id, 'authcode')).toBe('FROM-THE-REGISTRY');
    // The panel's own table says whois privacy is on (previous test); the registry says off: the
    // registry's state is the one flipped.
    const flipped = await domains.status.toggle(actor, id, 'whois_privacy');
    expect(registry.statusSent).toEqual([{ blocked: true, transferBlock: false, whoisPrivacy: true }]);
    expect(flipped.domain).toMatchObject({ blocked: true, whoisPrivacy: true });
  });
});
