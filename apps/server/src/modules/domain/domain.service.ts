import { isVisible, type Language, type PermissionKey } from '@panel247/contract/constants';
import type { Contact, Domain, DomainData } from '@panel247/contract/domain';
import { CONTACT_ROLES } from '@panel247/contract/domain-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { ContactRow, DomainRow } from '../../db/schema.ts';
import type { RegistryDomain, RegistryDriver } from '../../drivers/registry/registry.driver.ts';
import { NotFoundError } from '../../errors.ts';
import { addressBook } from '../address/address-book.ts';
import type { Actor } from '../auth/actor.ts';
import type { AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import { domainRepository } from './domain.repository.ts';
import { readTransferOut, TRANSFERRED_OUT } from './registry-messages.service.ts';

export interface DomainSettings {
  /** The provider's name servers, offered as the default mode. */
  defaultNameservers: string[];
}

export interface DomainContext {
  resource: AuthorizedResource & { accountId: number };
  row: DomainRow;
}

/**
 * A domain as the registry holds it, and the guard every call of the domain area starts with:
 * the permission check plus the domain row, created with defaults on first use. The services of
 * name servers, glue records, DNSSEC, status and contacts build on it; each of their changes is
 * one transaction that also calls the registry driver, so a registry refusal leaves nothing
 * half-written.
 */
export class DomainService {
  constructor(
    private readonly db: Db,
    private readonly registry: RegistryDriver,
    private readonly permissions: PermissionService,
    private readonly secrets: SecretBox,
    private readonly settings: DomainSettings,
    private readonly now: () => number,
  ) {}

  /** The guard plus the domain row, created with defaults on first use. */
  async context(actor: Actor, id: number, key: PermissionKey, need: 'visible' | 'action'): Promise<DomainContext> {
    const resource = await this.permissions.authorize(actor, id, key, need);
    const row = await this.ensureDomain(id, resource.referencePunycode, actor.accountId, {
      hasService: resource.hasService,
    });
    return { resource: { ...resource, accountId: actor.accountId }, row };
  }

  /** Whether the resource also has a hosting service (its zone can be hosted here). */
  async hasService(id: number): Promise<boolean> {
    return domainRepository.hasService(this.db, id);
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
    // A view's first calls arrive side by side, and each may be the domain's first use: one of
    // them makes the row, its name servers and contacts; the others read what it made.
    const inserted = await this.db.transaction().execute(async (trx) => {
      if (!(await domainRepository.insertIfMissing(trx, row))) return false;
      await domainRepository.setNameservers(trx, id, this.settings.defaultNameservers);
      const contactId = await domainRepository.insertContact(trx, emptyContact(accountId, this.now()));
      await domainRepository.assignContact(trx, id, [...CONTACT_ROLES], contactId);
      return true;
    });
    if (inserted) return row;
    const made = await domainRepository.find(this.db, id);
    if (!made) throw new Error(`domain ${id}: its row was neither made nor found`);
    return made;
  }

  /**
   * What the registry holds for the domain (the embedded registry reads the panel database). A
   * domain transferred to another registrar is no longer the panel's to read there: its last
   * copy in the panel is shown instead.
   */
  async registryState(ctx: DomainContext): Promise<RegistryDomain> {
    if (ctx.row.status === TRANSFERRED_OUT) return this.panelCopy(ctx);
    const state = await this.registry.readDomain(ctx.resource.referencePunycode);
    if (!state) throw new NotFoundError();
    return state;
  }

  private async panelCopy(ctx: DomainContext): Promise<RegistryDomain> {
    const id = ctx.resource.id;
    const [nameservers, expireTs] = await Promise.all([
      domainRepository.nameservers(this.db, id),
      domainRepository.expiry(this.db, id),
    ]);
    return {
      nameservers,
      blocked: ctx.row.blocked === 1,
      transferBlock: ctx.row.transfer_block === 1,
      whoisPrivacy: ctx.row.whois_privacy === 1,
      expireTs,
    };
  }

  async toDomain(ctx: DomainContext): Promise<Domain> {
    const [state, transferOut] = await Promise.all([
      this.registryState(ctx),
      readTransferOut(this.db, ctx.resource.referencePunycode),
    ]);
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
      transferOut,
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
    // Independent reads: on PostgreSQL they run side by side on two pooled connections.
    const [contacts, domain] = await Promise.all([
      domainRepository.contacts(this.db, ctx.resource.id),
      this.toDomain(ctx),
    ]);
    const levels = ctx.resource.levels;
    const byRole = (role: string) => {
      const key: PermissionKey = role === 'registrant' ? 'domain_ownercontacts' : 'domain_contacts';
      if (!isVisible(levels[key])) return hiddenContact();
      const row = contacts.find((c) => c.role === role) ?? contacts[0];
      if (!row) throw new NotFoundError();
      return toContact(row, language);
    };
    return {
      domain,
      registrant: byRole('registrant'),
      admin: byRole('admin'),
      billing: byRole('billing'),
      tech: byRole('tech'),
    };
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
