import { isActionable, isVisible, type Language, type PermissionKey } from '@panel247/contract/constants';
import { canonicalIPv6, isHostName, toAsciiName } from '@panel247/contract/dns-rules';
import type { Contact, DnssecEntry, Domain, DomainData, GlueRecord } from '@panel247/contract/domain';
import {
  CONTACT_ROLES,
  DNSSEC_ALGORITHMS,
  DNSSEC_DIGEST_LENGTHS,
  DNSSEC_DIGEST_TYPES,
  DNSSEC_FLAGS,
  DNSSEC_PROTOCOLS,
  isFullIp,
  NAMESERVERS_MAX,
  NAMESERVERS_MIN,
} from '@panel247/contract/domain-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { ContactRow, DomainRow } from '../../db/schema.ts';
import type { DsRecord } from '../../drivers/dns/dns.driver.ts';
import type { HostResolver } from '../../drivers/registry/host-resolver.ts';
import type { RegistryDomain, RegistryDriver } from '../../drivers/registry/registry.driver.ts';
import { type FieldError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import { addressBook } from '../address/address-book.ts';
import type { Actor } from '../auth/actor.ts';
import type { AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import { decodePublicKey, dnskeyRdata, dsDigestSha256, keyTag } from './dnssec-keys.ts';
import { domainRepository } from './domain.repository.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface DomainSettings {
  /** The provider's name servers, offered as the default mode. */
  defaultNameservers: string[];
}

/** The service zones hosted here, as far as a domain's DNSSEC needs them (the DNS service). */
export interface HostedZones {
  /** Whether the DNS server signs hosted zones, so their DS records can be offered in one click. */
  readonly signsZones: boolean;
  /** The DS records of a service's zone; the zone is created and signed first when needed. */
  dsRecordsOf(serviceId: number, reference: string, referencePunycode: string): Promise<DsRecord[]>;
}

export interface DomainContext {
  resource: AuthorizedResource & { accountId: number };
  row: DomainRow;
}

/**
 * The domain area: what the registry holds for a domain (name servers, glue, DS records, status
 * flags, auth code) and its contacts. Every change is one transaction that also calls the
 * registry driver, so a registry refusal leaves nothing half-written.
 */
export class DomainService {
  constructor(
    private readonly db: Db,
    private readonly registry: RegistryDriver,
    private readonly resolver: HostResolver,
    private readonly permissions: PermissionService,
    private readonly zones: HostedZones,
    private readonly secrets: SecretBox,
    private readonly settings: DomainSettings,
    private readonly now: () => number,
  ) {}

  /** The guard plus the domain row, created with defaults on first use. */
  async context(actor: Actor, id: number, key: PermissionKey, need: 'visible' | 'action'): Promise<DomainContext> {
    const resource = await this.permissions.authorize(actor, id, key, need);
    const row = await this.ensureDomain(id, resource.referencePunycode, actor.accountId, {
      hasService: await this.hasService(id),
    });
    return { resource: { ...resource, accountId: actor.accountId }, row };
  }

  private async hasService(id: number): Promise<boolean> {
    const row = await this.db.selectFrom('resources').select('has_service').where('id', '=', id).executeTakeFirst();
    return row?.has_service === 1;
  }

  /** First use of a domain: provider name servers, a fresh auth secret, one empty contact in every role. */
  async ensureDomain(
    id: number,
    name: string,
    accountId: number,
    options: { hasService: boolean; authType?: 'authcode' | 'transferkey'; dnssecType?: 'digest' | 'pubkey' },
  ): Promise<DomainRow> {
    const existing = await domainRepository.find(this.db, id);
    if (existing) return existing;
    const authType = options.authType ?? 'authcode';
    const row: DomainRow = {
      resource_id: id,
      dns_mode: options.hasService ? 'defaultDNS' : 'setDNS',
      status: 'active',
      registered_at: this.now(),
      blocked: 0,
      transfer_block: 0,
      whois_privacy: 0,
      auth_type: authType,
      dnssec_type: options.dnssecType ?? 'digest',
      auth_secret: this.secrets.seal(await this.registry.newAuthSecret(name, authType)),
    };
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.insert(trx, row);
      await domainRepository.setNameservers(trx, id, this.settings.defaultNameservers);
      const contactId = await domainRepository.insertContact(trx, emptyContact(accountId, this.now()));
      await domainRepository.assignContact(trx, id, [...CONTACT_ROLES], contactId);
    });
    return row;
  }

  /** What the registry holds for the domain (the embedded registry reads the panel database). */
  private async registryState(ctx: DomainContext): Promise<RegistryDomain> {
    const state = await this.registry.readDomain(ctx.resource.referencePunycode);
    if (!state) throw new NotFoundError();
    return state;
  }

  private async toDomain(ctx: DomainContext): Promise<Domain> {
    const state = await this.registryState(ctx);
    return {
      id: ctx.resource.id,
      name: ctx.resource.reference,
      dns: { mode: ctx.row.dns_mode as Domain['dns']['mode'], servers: state.nameservers },
      status: ctx.row.status,
      expireTS: state.expireTs,
      ts: ctx.row.registered_at,
      blocked: state.blocked,
      transferBlock: state.transferBlock,
      whoisPrivacy: state.whoisPrivacy,
      authType: ctx.row.auth_type as Domain['authType'],
      dnssecType: ctx.row.dnssec_type as Domain['dnssecType'],
    };
  }

  async get(actor: Actor, id: number, language: Language): Promise<DomainData> {
    const ctx = await this.context(actor, id, 'domain', 'visible');
    return this.domainData(ctx, language);
  }

  /**
   * The domain with its four contacts. A contact the user may not see (registrant without
   * `domain_ownercontacts` visibility, the others without `domain_contacts`) comes blank: the
   * answer keeps its shape, the personal data stays on the server.
   */
  async domainData(ctx: DomainContext, language: Language): Promise<DomainData> {
    const contacts = await domainRepository.contacts(this.db, ctx.resource.id);
    const levels = ctx.resource.levels;
    const byRole = (role: string) => {
      const key: PermissionKey = role === 'registrant' ? 'domain_ownercontacts' : 'domain_contacts';
      if (!isVisible(levels[key])) return hiddenContact();
      const row = contacts.find((c) => c.role === role) ?? contacts[0];
      if (!row) throw new NotFoundError();
      return toContact(row, language);
    };
    return {
      domain: await this.toDomain(ctx),
      registrant: byRole('registrant'),
      admin: byRole('admin'),
      billing: byRole('billing'),
      tech: byRole('tech'),
    };
  }

  // --- name servers ---------------------------------------------------------------------------

  async dnsInit(actor: Actor, id: number) {
    const ctx = await this.context(actor, id, 'domain_dns', 'visible');
    return {
      domainDNSs: (await this.registryState(ctx)).nameservers,
      hasService: await this.hasService(id),
      defaultDNSs: this.settings.defaultNameservers,
      mode: ctx.row.dns_mode,
    };
  }

  async dnsEdit(actor: Actor, id: number, useDefaults: boolean, typed: string[]): Promise<{ domain: Domain }> {
    const ctx = await this.context(actor, id, 'domain_dns', 'action');
    let hosts: string[];
    if (useDefaults) {
      if (!(await this.hasService(id))) throw FieldErrors.one('default-ns', 'domain.error.defaults_need_service');
      hosts = this.settings.defaultNameservers;
    } else {
      hosts = await this.checkNameservers(typed);
    }
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.setNameservers(trx, id, hosts);
      await domainRepository.update(trx, id, { dns_mode: useDefaults ? 'defaultDNS' : 'setDNS' });
      await this.registry.setNameservers(ctx.resource.referencePunycode, hosts);
    });
    return {
      domain: await this.toDomain({ ...ctx, row: { ...ctx.row, dns_mode: useDefaults ? 'defaultDNS' : 'setDNS' } }),
    };
  }

  /** 2 to 7 distinct host names, each resolving to an address; errors name the row (`dns[N]`). */
  private async checkNameservers(typed: string[]): Promise<string[]> {
    // Control characters are refused before anything is trimmed away (a trailing CR/LF included).
    const rows = typed.map((value) => (CONTROL.test(value) ? '\u0000' : value.trim().toLowerCase().replace(/\.$/, '')));
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

  // --- glue records --------------------------------------------------------------------------

  async glueList(actor: Actor, id: number): Promise<GlueRecord[]> {
    await this.context(actor, id, 'domain_gluerecords', 'visible');
    return this.glueRows(id);
  }

  private async glueRows(id: number): Promise<GlueRecord[]> {
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

  async glueCreate(
    actor: Actor,
    id: number,
    params: { name: string; ip: string; ipv6: string },
  ): Promise<GlueRecord[]> {
    const ctx = await this.context(actor, id, 'domain_gluerecords', 'action');
    const zone = ctx.resource.referencePunycode;
    // "ns1" is relative to the domain; a name ending in a dot is absolute and must lie under it.
    const absolute = params.name.trim().endsWith('.');
    const typed = params.name.trim().toLowerCase().replace(/\.$/, '');
    const ascii = CONTROL.test(params.name) ? undefined : toAsciiName(typed);
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
    return this.glueRows(id);
  }

  async glueSave(actor: Actor, id: number, glueId: number, params: { ip: string; ipv6: string }) {
    const ctx = await this.context(actor, id, 'domain_gluerecords', 'action');
    const glue = await domainRepository.findGlue(this.db, id, glueId);
    if (!glue) throw new NotFoundError();
    const addresses = this.checkGlueAddresses(params.ip, params.ipv6);
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.updateGlue(trx, id, glueId, addresses);
      await this.registry.updateHost(ctx.resource.referencePunycode, glue.name, addresses.ipv4, addresses.ipv6);
    });
    return this.glueRows(id);
  }

  async glueDelete(actor: Actor, id: number, glueId: number) {
    const ctx = await this.context(actor, id, 'domain_gluerecords', 'action');
    const glue = await domainRepository.findGlue(this.db, id, glueId);
    if (!glue) throw new NotFoundError();
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.deleteGlue(trx, id, glueId);
      await this.registry.deleteHost(ctx.resource.referencePunycode, glue.name);
    });
    return this.glueRows(id);
  }

  // --- DNSSEC --------------------------------------------------------------------------------

  private async dsRows(id: number): Promise<DnssecEntry[]> {
    return (await domainRepository.dsRecords(this.db, id)).map((row) => ({
      id: row.id,
      keytag: row.keytag,
      algorithm: row.algorithm,
      digesttype: row.digest_type,
      digest: row.digest,
    }));
  }

  async dnssecList(actor: Actor, id: number) {
    await this.context(actor, id, 'domain_dnssec', 'visible');
    return this.dsRows(id);
  }

  async dnssecCreateInit(actor: Actor, id: number) {
    const ctx = await this.context(actor, id, 'domain_dnssec', 'visible');
    const asStrings = (map: Record<number, string>) => Object.fromEntries(Object.entries(map));
    return {
      type: ctx.row.dnssec_type as 'digest' | 'pubkey',
      algorithms: asStrings(DNSSEC_ALGORITHMS),
      digestTypes: asStrings(DNSSEC_DIGEST_TYPES),
      flags: asStrings(DNSSEC_FLAGS),
      protocols: asStrings(DNSSEC_PROTOCOLS),
      // Offered only to whom may also change the hosted zone (signing it is a change to it).
      zoneKeysAvailable:
        this.zones.signsZones && (await this.hasService(id)) && isActionable(ctx.resource.levels.service_dnszone),
    };
  }

  async dnssecCreate(
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
    const ctx = await this.context(actor, id, 'domain_dnssec', 'action');
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
  async dnssecFromZone(actor: Actor, id: number): Promise<DnssecEntry[]> {
    const ctx = await this.context(actor, id, 'domain_dnssec', 'action');
    if (!this.zones.signsZones || !(await this.hasService(id))) throw new NotFoundError();
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

  async dnssecDelete(actor: Actor, id: number, dnssecId: number) {
    const ctx = await this.context(actor, id, 'domain_dnssec', 'action');
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

  // --- status flags and the transfer secret ----------------------------------------------------

  async toggle(actor: Actor, id: number, flag: 'blocked' | 'transfer_block' | 'whois_privacy') {
    const key: PermissionKey = flag === 'transfer_block' ? 'domain_transferblock' : 'domain_others';
    const ctx = await this.context(actor, id, key, 'action');
    // The registry's current status is what gets flipped.
    const current = await this.registryState(ctx);
    const status = {
      blocked: current.blocked,
      transferBlock: current.transferBlock,
      whoisPrivacy: current.whoisPrivacy,
    };
    const field = ({ blocked: 'blocked', transfer_block: 'transferBlock', whois_privacy: 'whoisPrivacy' } as const)[
      flag
    ];
    status[field] = !status[field];
    await this.db.transaction().execute(async (trx) => {
      await domainRepository.update(trx, id, { [flag]: status[field] ? 1 : 0 });
      await this.registry.setStatus(ctx.resource.referencePunycode, status);
    });
    return { domain: await this.toDomain(ctx) };
  }

  async transferSecret(actor: Actor, id: number, type: 'authcode' | 'transferkey'): Promise<string> {
    const ctx = await this.context(actor, id, 'domain_authcode', 'visible');
    if (ctx.row.auth_type !== type) throw new NotFoundError();
    return this.registry.readAuthSecret(ctx.resource.referencePunycode, type);
  }
}

function emptyContact(accountId: number, now: number) {
  return {
    account_id: accountId,
    is_org: 0,
    org_name: '',
    first_name: '',
    last_name: '',
    ident_number: '',
    email: '',
    phone: '',
    address: '',
    postal_code: '',
    city: '',
    state: '',
    country: '',
    created_at: now,
  };
}

function hiddenContact(): Contact {
  return {
    id: 0,
    type: 'individual',
    orgName: '',
    name: '',
    firstName: '',
    lastName: '',
    vat: '',
    email: '',
    phone: '',
    address: '',
    postalCode: '',
    city: '',
    state: '',
    country: '',
    countryKey: '',
    stateKey: '',
    cityKey: '',
  };
}

export function toContact(row: ContactRow, language: Language): Contact {
  const name = `${row.first_name} ${row.last_name}`.trim();
  return {
    id: row.id,
    type: row.is_org === 1 ? 'organization' : 'individual',
    orgName: row.org_name,
    name: row.org_name || name,
    firstName: row.first_name,
    lastName: row.last_name,
    vat: row.ident_number,
    email: row.email,
    phone: row.phone,
    address: row.address,
    postalCode: row.postal_code,
    city: row.city,
    state: row.state,
    country: row.country ? addressBook.countryName(row.country, language) : '',
    countryKey: row.country,
    stateKey: row.state,
    cityKey: row.city,
  };
}
