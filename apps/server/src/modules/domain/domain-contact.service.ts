import type { Language } from '@panel247/contract/constants';
import type { ContactSaveParams, DomainData } from '@panel247/contract/domain';
import { validateContact } from '@panel247/contract/domain-rules';
import type { Db } from '../../db/database.ts';
import type { RegistryDriver } from '../../drivers/registry/registry.driver.ts';
import { type FieldError, FieldErrors } from '../../errors.ts';
import { addressBook } from '../address/address-book.ts';
import type { Actor } from '../auth/actor.ts';
import { domainRepository } from './domain.repository.ts';
import type { DomainService } from './domain.service.ts';

/**
 * Editing a domain's contacts. Contacts are the account's: one contact may hold several roles of
 * several domains. The modes say how far a change goes:
 * - only_contact: this role of this domain gets the new data (a contact of its own);
 * - only_domain: every role of this domain that shared the edited contact gets the new data;
 * - all_contacts: the contact itself changes, wherever it is used.
 */
export class DomainContactService {
  constructor(
    private readonly db: Db,
    private readonly domains: DomainService,
    private readonly registry: RegistryDriver,
    private readonly now: () => number,
  ) {}

  async save(actor: Actor, id: number, params: ContactSaveParams, language: Language): Promise<DomainData> {
    const key = params.type === 'registrant' ? 'domain_ownercontacts' : 'domain_contacts';
    const ctx = await this.domains.context(actor, id, key, 'action');
    const input = {
      isOrg: params.isOrg === '1',
      firstName: params.firstName.trim(),
      lastName: params.lastName.trim(),
      identNumber: params.identNumber.trim().toUpperCase(),
      orgName: params.isOrg === '1' ? params.orgName.trim() : '',
      email: params.email.trim(),
      phone: params.phone.trim(),
      postalCode: params.postalCode.trim(),
      country: params.country.trim().toUpperCase(),
      state: params.state.trim(),
      city: params.city.trim(),
      address: params.address.trim(),
    };
    const errors: FieldError[] = validateContact(input);
    await this.checkAddress(input, errors);
    if (errors.length > 0) throw new FieldErrors(errors);

    const contacts = await domainRepository.contacts(this.db, id);
    const current = contacts.find((c) => c.role === params.type);
    const data = {
      is_org: input.isOrg ? 1 : 0,
      org_name: input.orgName,
      first_name: input.firstName,
      last_name: input.lastName,
      ident_number: input.identNumber,
      email: input.email,
      phone: input.phone,
      address: input.address,
      postal_code: input.postalCode,
      city: input.city,
      state: input.state,
      country: input.country,
    };
    const roles =
      params.mode === 'only_contact' || !current
        ? [params.type]
        : contacts.filter((c) => c.id === current.id).map((c) => c.role);
    await this.db.transaction().execute(async (trx) => {
      if (params.mode === 'all_contacts' && current) {
        await domainRepository.updateContact(trx, actor.accountId, current.id, data);
      } else {
        const contactId = await domainRepository.insertContact(trx, {
          account_id: actor.accountId,
          created_at: this.now(),
          ...data,
        });
        await domainRepository.assignContact(trx, id, roles, contactId);
      }
      await this.registry.updateContact(ctx.resource.referencePunycode, roles, input, params.mode);
    });
    return this.domains.domainData(ctx, language);
  }

  /** The address must exist in the data set where the data set knows it; the postal code is free (1-5). */
  private async checkAddress(
    input: { country: string; state: string; city: string; postalCode: string },
    errors: FieldError[],
  ) {
    const has = (field: string) => errors.some((e) => e.field === field);
    if (!has('country') && !addressBook.isCountry(input.country)) {
      errors.push({ field: 'country', messageKey: 'domain.error.country' });
      return;
    }
    if (!has('postalCode') && (input.postalCode.length < 1 || input.postalCode.length > 5)) {
      errors.push({ field: 'postalCode', messageKey: 'domain.error.postal_code' });
    }
    const states = await addressBook.states(input.country, 'es');
    if (has('state') || states.length === 0) return;
    if (!states.some((s) => s.key === input.state)) {
      errors.push({ field: 'state', messageKey: 'domain.error.state' });
      return;
    }
    const cities = await addressBook.cities(input.country, input.state, 'es');
    if (!has('city') && cities.length > 0 && !cities.some((c) => c.name.toLowerCase() === input.city.toLowerCase())) {
      errors.push({ field: 'city', messageKey: 'domain.error.city' });
    }
  }
}
