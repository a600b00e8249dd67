import { newLocalAuthSecret } from '../auth-secret.ts';
import type {
  RegistryContact,
  RegistryDomain,
  RegistryDriver,
  RegistryDs,
  RegistryGlue,
  RegistryMessage,
  RegistryRecord,
} from '../registry.driver.ts';
import {
  type EppDomainInfo,
  type EppHost,
  type EppVerb,
  eppCommands,
  holderNameOf,
  readAvailableHosts,
  readContactHidden,
  readContactHolder,
  readDomainInfo,
  readHostAddresses,
  readPollMessage,
  TRANSFER_LOCK,
  UPDATE_LOCK,
} from './epp-commands.ts';
import { EppConnectionLost } from './epp-connection.ts';
import type { EppPool } from './epp-pool.ts';
import { EPP_NO_MESSAGES, EPP_OBJECT_MISSING, expectSuccess, RegistryRefusedError } from './epp-result.ts';
import type { EppResponse } from './epp-xml.ts';

/** One configured registry: its TLDs, its session pool, and whether it wants host objects. */
export interface EppRegistryHandle {
  name: string;
  /** TLDs (or second-level zones such as `com.es`) it is the registry of, lower-case, no dots around. */
  tlds: string[];
  pool: EppPool;
  hostObjects: boolean;
}

export interface EppDriverOptions {
  /**
   * The registries as configured. Read when the driver is made and again every `refreshMs`,
   * never while a change waits on them: a change runs inside its service's transaction, which on
   * SQLite holds the one connection such a read would need.
   */
  settings: () => Promise<unknown[]>;
  /** Each registry's handle (its session pool) from its settings. */
  handles: (settings: unknown[]) => Promise<EppRegistryHandle[]>;
  refreshMs: number;
  /** How long a domain's reading is reused (the domain view reads the registry, briefly cached). */
  cacheSeconds: number;
  now(): number;
}

function addressesOf(ipv4: string, ipv6: string): EppHost['addresses'] {
  return [
    ...(ipv4 ? [{ ip: 'v4' as const, address: ipv4 }] : []),
    ...(ipv6 ? [{ ip: 'v6' as const, address: ipv6 }] : []),
  ];
}

const sameDs = (a: RegistryDs, b: RegistryDs) =>
  a.keytag === b.keytag && a.algorithm === b.algorithm && a.digest.toUpperCase() === b.digest.toUpperCase();

/**
 * The registry of record over EPP: each method is the commands a careful registrar sends for it.
 * The registry is the truth: reads ask it (cached `cacheSeconds`), and a refusal comes back as a
 * RegistryRefusedError, which the calling service's transaction rolls back on. A command whose
 * connection dropped after it left is never simply sent again: the domain is read first, and the
 * command is repeated only if its effect is not there.
 */
export class EppRegistryDriver implements RegistryDriver {
  readonly kind = 'epp' as const;
  private readonly cache = new Map<string, { until: number; info: EppDomainInfo }>();
  private registries: Promise<EppRegistryHandle[]>;
  private loaded = '';
  private readonly refresh: NodeJS.Timeout;

  constructor(private readonly options: EppDriverOptions) {
    this.registries = this.load();
    this.refresh = setInterval(() => void this.reload(), options.refreshMs);
    this.refresh.unref();
  }

  private async load(): Promise<EppRegistryHandle[]> {
    const settings = await this.options.settings();
    this.loaded = JSON.stringify(settings);
    return this.options.handles(settings);
  }

  /** New settings (a registry added, a password changed) replace the pools; unchanged ones keep theirs. */
  private async reload(): Promise<void> {
    const settings = await this.options.settings().catch(() => undefined);
    if (!settings || JSON.stringify(settings) === this.loaded) return;
    const before = this.registries;
    this.loaded = JSON.stringify(settings);
    this.registries = this.options.handles(settings);
    for (const registry of await before.catch(() => [])) await registry.pool.close();
  }

  /** The registry of a domain: the one whose TLD is the longest suffix of the name. */
  async registryOf(domain: string): Promise<EppRegistryHandle> {
    let best: EppRegistryHandle | undefined;
    let length = -1;
    for (const registry of await this.registries)
      for (const tld of registry.tlds)
        if ((domain === tld || domain.endsWith(`.${tld}`)) && tld.length > length) {
          best = registry;
          length = tld.length;
        }
    if (!best)
      throw new RegistryRefusedError(2307, {
        message: `no registry for ${domain}`,
        reason: '',
        clTRID: '',
        svTRID: '',
      });
    return best;
  }

  private async send(domain: string, name: string, command: EppVerb): Promise<EppResponse> {
    return (await this.registryOf(domain)).pool.command(name, command.verb, command.extension);
  }

  /** The registry's domain:info (reused for `cacheSeconds` unless `fresh`); undefined when it does not know it. */
  async info(domain: string, fresh = false): Promise<EppDomainInfo | undefined> {
    const cached = this.cache.get(domain);
    if (!fresh && cached && cached.until > this.options.now()) return cached.info;
    const response = await this.send(domain, 'domain:info', eppCommands.domainInfo(domain));
    if (response.code === EPP_OBJECT_MISSING) {
      this.cache.delete(domain);
      return undefined;
    }
    const info = readDomainInfo(expectSuccess(response));
    this.cache.set(domain, { until: this.options.now() + this.options.cacheSeconds, info });
    return info;
  }

  private async known(domain: string, fresh = true): Promise<EppDomainInfo> {
    const info = await this.info(domain, fresh);
    if (!info)
      throw new RegistryRefusedError(EPP_OBJECT_MISSING, { message: domain, reason: '', clTRID: '', svTRID: '' });
    return info;
  }

  /**
   * Sends a change once; if the connection dropped after it left, reads the domain and sends it
   * again only when `done` says its effect is missing. The cached reading goes either way.
   */
  private async change(domain: string, name: string, command: EppVerb, done: (info: EppDomainInfo) => boolean) {
    try {
      expectSuccess(await this.send(domain, name, command));
    } catch (error) {
      if (!(error instanceof EppConnectionLost) || !error.sent) throw error;
      if (!done(await this.known(domain))) expectSuccess(await this.send(domain, name, command));
    } finally {
      this.cache.delete(domain);
    }
  }

  async readDomain(domain: string): Promise<RegistryDomain | undefined> {
    const info = await this.info(domain);
    return info && this.domainOf(domain, info);
  }

  private async domainOf(domain: string, info: EppDomainInfo): Promise<RegistryDomain> {
    return {
      nameservers: info.hosts.map((host) => host.name),
      blocked: info.statuses.includes(UPDATE_LOCK),
      transferBlock: info.statuses.includes(TRANSFER_LOCK),
      whoisPrivacy: info.registrant ? await this.registrantHidden(domain, info.registrant) : false,
      expireTs: info.expiresAt,
      ds: info.ds,
    };
  }

  /**
   * A fresh domain:info, plus the registrant's disclose flag and the glue: each subordinate
   * host's host:info at a registry of host objects, the name servers' attributes otherwise.
   */
  async readRecord(domain: string): Promise<RegistryRecord | undefined> {
    const info = await this.info(domain, true);
    if (!info) return undefined;
    const { hostObjects } = await this.registryOf(domain);
    const hosts: EppHost[] = hostObjects
      ? await Promise.all(
          info.subordinates.map(async (name) => ({
            name,
            addresses: readHostAddresses(
              expectSuccess(await this.send(domain, 'host:info', eppCommands.hostInfo(name))),
            ),
          })),
        )
      : info.hosts.filter((host) => host.name.endsWith(`.${domain}`));
    return {
      ...(await this.domainOf(domain, info)),
      ds: info.ds,
      authInfo: info.authInfo,
      glue: hosts
        .filter((host) => host.addresses.length > 0)
        .map((host) => ({
          name: host.name,
          ipv4: host.addresses.find((a) => a.ip === 'v4')?.address ?? '',
          ipv6: host.addresses.find((a) => a.ip === 'v6')?.address ?? '',
        })),
    };
  }

  private async registrantHidden(domain: string, registrant: string): Promise<boolean> {
    const response = await this.send(domain, 'contact:info', eppCommands.contactInfo(registrant));
    return response.code === 1000 && readContactHidden(response);
  }

  async readAuthSecret(domain: string): Promise<string> {
    return (await this.known(domain)).authInfo;
  }

  /**
   * A code for the panel's own record of a new domain: at a real registry the domain already has
   * one, read with `readAuthSecret`; nothing is sent.
   */
  async newAuthSecret(_domain: string, type: 'authcode' | 'transferkey'): Promise<string> {
    return newLocalAuthSecret(type);
  }

  /** The hosts as the registry takes them: names (host objects, made where missing) or names with glue. */
  private async hostsFor(domain: string, names: string[], glue: RegistryGlue[]): Promise<EppHost[]> {
    if (names.length === 0) return [];
    const registry = await this.registryOf(domain);
    const withGlue = names.map((name) => {
      const own = glue.find((g) => g.name === name);
      return { name, addresses: own && name.endsWith(`.${domain}`) ? addressesOf(own.ipv4, own.ipv6) : [] };
    });
    if (!registry.hostObjects) return withGlue;
    const missing = readAvailableHosts(
      expectSuccess(await this.send(domain, 'host:check', eppCommands.hostCheck(names))),
    );
    for (const host of withGlue.filter((h) => missing.has(h.name)))
      expectSuccess(await this.send(domain, 'host:create', eppCommands.hostCreate(host)));
    return withGlue.map((host) => ({ name: host.name, addresses: [] }));
  }

  async setNameservers(domain: string, hosts: string[], glue: RegistryGlue[]): Promise<void> {
    const wanted = hosts.map((host) => host.toLowerCase().replace(/\.$/, ''));
    const current = await this.known(domain);
    const have = current.hosts.map((host) => host.name);
    const adding = wanted.filter((name) => !have.includes(name));
    const removing = current.hosts.filter((host) => !wanted.includes(host.name));
    if (adding.length === 0 && removing.length === 0) return;
    const added = await this.hostsFor(domain, adding, glue);
    const { hostObjects } = await this.registryOf(domain);
    await this.change(
      domain,
      'domain:update',
      eppCommands.domainUpdate(domain, { addHosts: added, removeHosts: removing }, hostObjects),
      (info) => wanted.every((name) => info.hosts.some((h) => h.name === name)) && info.hosts.length === wanted.length,
    );
  }

  async createHost(domain: string, host: string, ipv4: string, ipv6: string): Promise<void> {
    const registry = await this.registryOf(domain);
    if (!registry.hostObjects) return this.reglue(domain, host, addressesOf(ipv4, ipv6));
    expectSuccess(
      await this.send(
        domain,
        'host:create',
        eppCommands.hostCreate({ name: host, addresses: addressesOf(ipv4, ipv6) }),
      ),
    );
  }

  async updateHost(domain: string, host: string, ipv4: string, ipv6: string): Promise<void> {
    const registry = await this.registryOf(domain);
    const wanted = addressesOf(ipv4, ipv6);
    if (!registry.hostObjects) return this.reglue(domain, host, wanted);
    const current = readHostAddresses(expectSuccess(await this.send(domain, 'host:info', eppCommands.hostInfo(host))));
    const add = wanted.filter((a) => !current.some((c) => c.address === a.address));
    const remove = current.filter((c) => !wanted.some((a) => a.address === c.address));
    if (add.length === 0 && remove.length === 0) return;
    expectSuccess(await this.send(domain, 'host:update', eppCommands.hostUpdate(host, add, remove)));
  }

  async deleteHost(domain: string, host: string): Promise<void> {
    const registry = await this.registryOf(domain);
    if (!registry.hostObjects) {
      // an attribute only exists as a name server: one still in use keeps its glue
      const info = await this.known(domain);
      if (info.hosts.some((h) => h.name === host))
        throw new RegistryRefusedError(2305, {
          message: `${host} is a name server of ${domain}`,
          reason: '',
          clTRID: '',
          svTRID: '',
        });
      return;
    }
    expectSuccess(await this.send(domain, 'host:delete', eppCommands.hostDelete(host)));
  }

  /** Host attributes: new glue reaches the registry as the name server's attribute, when it is one. */
  private async reglue(domain: string, host: string, addresses: EppHost['addresses']): Promise<void> {
    const info = await this.known(domain);
    const current = info.hosts.find((h) => h.name === host);
    if (!current) return;
    await this.change(
      domain,
      'domain:update',
      eppCommands.domainUpdate(domain, { removeHosts: [current], addHosts: [{ name: host, addresses }] }, false),
      (after) => after.hosts.some((h) => h.name === host && h.addresses.length === addresses.length),
    );
  }

  async addDs(domain: string, ds: RegistryDs[]): Promise<void> {
    await this.change(domain, 'domain:update', eppCommands.domainUpdate(domain, { addDs: ds }, true), (info) =>
      ds.every((d) => info.ds.some((have) => sameDs(have, d))),
    );
  }

  async removeDs(domain: string, ds: RegistryDs[]): Promise<void> {
    const info = await this.known(domain);
    const present = ds.filter((d) => info.ds.some((have) => sameDs(have, d)));
    if (present.length === 0) return;
    await this.change(domain, 'domain:update', eppCommands.domainUpdate(domain, { removeDs: present }, true), (after) =>
      present.every((d) => !after.ds.some((have) => sameDs(have, d))),
    );
  }

  /**
   * The locks as statuses, whois privacy as the registrant's disclose flag. Taking the update lock
   * away goes alone and first (the registry refuses anything else while it is on), putting it on
   * goes last.
   */
  async setStatus(domain: string, flags: { blocked: boolean; transferBlock: boolean; whoisPrivacy: boolean }) {
    const info = await this.known(domain);
    const { hostObjects } = await this.registryOf(domain);
    const status = (lock: string, on: boolean) => (info.statuses.includes(lock) === on ? undefined : { lock, on });
    const update = status(UPDATE_LOCK, flags.blocked);
    const transfer = status(TRANSFER_LOCK, flags.transferBlock);
    const toggle = async (lock: string, on: boolean) =>
      this.change(
        domain,
        'domain:update',
        eppCommands.domainUpdate(domain, on ? { addStatus: [lock] } : { removeStatus: [lock] }, hostObjects),
        (after) => after.statuses.includes(lock) === on,
      );
    if (update && !update.on) await toggle(UPDATE_LOCK, false);
    if (transfer) await toggle(TRANSFER_LOCK, transfer.on);
    if (info.registrant && (await this.registrantHidden(domain, info.registrant)) !== flags.whoisPrivacy) {
      expectSuccess(
        await this.send(
          domain,
          'contact:update',
          eppCommands.contactUpdate(info.registrant, { hidden: flags.whoisPrivacy }),
        ),
      );
    }
    if (update?.on) await toggle(UPDATE_LOCK, true);
  }

  /**
   * New contact data reaches the registry as a careful registrar sends it. The registrant's data
   * with the same holder (same name and organisation) changes in place with contact:update: a
   * new registrant object would be a change of holder, which many registries treat as a trade
   * (their own procedure, fees, or a 2306 refusal). Any other change is a new contact object
   * (its id made here) named in the domain's roles: the registrant with `chg`, the others removed
   * and added per role.
   */
  async updateContact(domain: string, roles: string[], contact: RegistryContact): Promise<void> {
    const info = await this.known(domain);
    const holderRole = roles.includes('owner') || roles.includes('registrant');
    const others = roles.filter((role) => role !== 'owner' && role !== 'registrant');
    const registrant = info.registrant
      ? expectSuccess(await this.send(domain, 'contact:info', eppCommands.contactInfo(info.registrant)))
      : undefined;
    const holder = registrant && readContactHolder(registrant);
    const sameHolder =
      holder !== undefined &&
      holder.name === holderNameOf(contact) &&
      holder.org === (contact.isOrg ? contact.orgName : '');
    if (holderRole && sameHolder) {
      expectSuccess(await this.send(domain, 'contact:update', eppCommands.contactUpdate(info.registrant, { contact })));
      if (others.length === 0) return;
    }
    const id = newContactId();
    const hidden = registrant ? readContactHidden(registrant) : false;
    expectSuccess(
      await this.send(
        domain,
        'contact:create',
        eppCommands.contactCreate(id, contact, newLocalAuthSecret('authcode'), hidden),
      ),
    );
    const replaced = info.contacts.filter((c) => others.includes(c.type));
    await this.change(
      domain,
      'domain:update',
      eppCommands.domainUpdate(
        domain,
        {
          ...(holderRole && !sameHolder ? { registrant: id } : {}),
          removeContacts: replaced,
          addContacts: others.map((type) => ({ type, id })),
        },
        (await this.registryOf(domain)).hostObjects,
      ),
      (after) => after.registrant === id || after.contacts.some((c) => c.id === id),
    );
  }

  /**
   * Each registry's queue, message by message: kept by `take`, then acknowledged. A registry that
   * cannot be reached does not keep the others' messages waiting; the first failure is thrown
   * once all were read. At most `MAX_MESSAGES_PER_ROUND` a registry, so a queue that never
   * empties (an ack the registry ignores) cannot hold the round.
   */
  async drainMessages(take: (message: RegistryMessage) => Promise<void>): Promise<number> {
    let taken = 0;
    const failures: unknown[] = [];
    for (const registry of await this.registries) {
      try {
        for (let read = 0; read < MAX_MESSAGES_PER_ROUND; read++) {
          const { verb } = eppCommands.pollRequest();
          const response = expectSuccess(await registry.pool.command('poll', verb));
          if (response.code === EPP_NO_MESSAGES || !response.queue) break;
          const message = readPollMessage(response);
          if (message.domain) this.cache.delete(message.domain);
          const outgoing = message.transfer?.actionBy === registry.pool.clientId;
          await take({ registry: registry.name, ...message, outgoing });
          expectSuccess(await registry.pool.command('poll', eppCommands.pollAck(message.id).verb));
          taken += 1;
        }
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
    return taken;
  }

  async close(): Promise<void> {
    clearInterval(this.refresh);
    const registries = await this.registries.catch(() => []);
    await Promise.all(registries.map((registry) => registry.pool.close()));
  }
}

const MAX_MESSAGES_PER_ROUND = 1000;

/** A contact id the registry accepts (RFC 5730 clIDType: 3 to 16 characters). */
function newContactId(): string {
  return `p247${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.slice(0, 16);
}
