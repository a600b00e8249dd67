import type { Contact, DomainData } from '@panel247/contract/domain';
import {
  CONTACT_ROLES,
  type ContactEditMode,
  type ContactInput,
  type ContactRole,
  POSTAL_CODE_MAX,
  validateContact,
} from '@panel247/contract/domain-rules';
import type { Params } from '../../../lib/api-client';

export interface ContactFormValues extends ContactInput {
  mode: ContactEditMode;
}

/** The contact as the form edits it: country and state by key, city by name (the payload's form). */
export function contactToValues(contact: Contact): Omit<ContactFormValues, 'mode'> {
  return {
    isOrg: contact.type === 'organization',
    firstName: contact.firstName,
    lastName: contact.lastName,
    identNumber: contact.vat,
    orgName: contact.orgName,
    email: contact.email,
    phone: contact.phone,
    postalCode: contact.postalCode,
    country: contact.countryKey || contact.country,
    state: contact.stateKey,
    city: contact.city,
    address: contact.address,
  };
}

/** Roles whose data may be copied into `role`'s form: the others; the registrant only with owner-contact visibility. */
export function copySources(role: ContactRole, ownerVisible: boolean): ContactRole[] {
  return CONTACT_ROLES.filter((other) => other !== role && (other !== 'registrant' || ownerVisible));
}

/** Copying another role's contact replaces every field; the edit mode stays as chosen. */
export function copyFrom(values: ContactFormValues, data: DomainData, source: ContactRole): ContactFormValues {
  return { ...contactToValues(data[source]), mode: values.mode };
}

/**
 * The shared rules plus the free postal code input's length (1-5) when the data set has no codes.
 * Field → i18n key.
 */
export function contactErrors(values: ContactInput, freePostalCode: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { field, messageKey } of validateContact(values)) if (!(field in errors)) errors[field] = messageKey;
  if (!errors.postalCode && freePostalCode && values.postalCode.trim().length > POSTAL_CODE_MAX) {
    errors.postalCode = 'domain.error.postal_code';
  }
  return errors;
}

/** The save payload (spec section 3): `type` is the role, isOrg 0|1, the organisation name only for organisations. */
export function contactPayload(role: ContactRole, values: ContactFormValues): Params {
  return {
    type: role,
    isOrg: values.isOrg ? '1' : '0',
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    identNumber: values.identNumber.trim().toUpperCase(),
    orgName: values.isOrg ? values.orgName.trim() : '',
    email: values.email.trim(),
    phone: values.phone.trim(),
    postalCode: values.postalCode.trim(),
    country: values.country,
    state: values.state,
    city: values.city,
    address: values.address.trim(),
    mode: values.mode,
  };
}

/** Display name: the organisation's name if any, else the name. */
export function contactDisplayName(contact: Contact): string {
  return contact.orgName || contact.name || `${contact.firstName} ${contact.lastName}`.trim();
}
