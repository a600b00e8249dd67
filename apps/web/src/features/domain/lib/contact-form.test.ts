// @vitest-environment node
import type { Contact, DomainData } from '@panel247/contract/domain';
import { identLabelKey, requiredContactFields } from '@panel247/contract/domain-rules';
import { describe, expect, it } from 'vitest';
import {
  type ContactFormValues,
  contactErrors,
  contactPayload,
  contactToValues,
  copyFrom,
  copySources,
} from './contact-form';

const person: Contact = {
  id: 4,
  type: 'individual',
  orgName: '',
  name: 'Ana García López',
  firstName: 'Ana',
  lastName: 'García López',
  vat: '12345678Z',
  email: 'ana@demo.test',
  phone: '+34.912345678',
  address: 'Calle Mayor 1',
  postalCode: '28013',
  city: 'Madrid',
  state: 'M',
  country: 'España',
  countryKey: 'ES',
  stateKey: 'M',
  cityKey: 'Madrid',
};
const company: Contact = {
  ...person,
  id: 3,
  type: 'organization',
  orgName: 'Demo Hosting S.L.',
  name: 'Demo Hosting S.L.',
  vat: 'B12345674',
  city: 'Barcelona',
  stateKey: 'B',
};
const data = { registrant: company, admin: person, billing: person, tech: person } as unknown as DomainData;

describe('contact form', () => {
  it('requires the organisation name only for organisations', () => {
    expect(requiredContactFields(false)).not.toContain('orgName');
    expect(requiredContactFields(true)[0]).toBe('orgName');
    const values = contactToValues(person);
    expect(contactErrors(values, true)).toEqual({});
    expect(contactErrors({ ...values, isOrg: true }, true)).toEqual({ orgName: 'validation.required' });
    const empty = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? '' : v]));
    expect(Object.keys(contactErrors(empty as typeof values, true)).sort()).toEqual(
      [
        'address',
        'city',
        'country',
        'email',
        'firstName',
        'identNumber',
        'lastName',
        'phone',
        'postalCode',
        'state',
      ].sort(),
    );
  });

  it('labels the id VAT for organisations and NIF otherwise; checks Spanish ids, phone and the free postal code', () => {
    expect(identLabelKey(true)).toBe('domain.contact.vat');
    expect(identLabelKey(false)).toBe('domain.contact.nif');
    const values = contactToValues(person);
    expect(contactErrors({ ...values, identNumber: '12345678A' }, true)).toEqual({
      identNumber: 'domain.error.spanish_id',
    });
    expect(contactErrors({ ...values, identNumber: 'X1234567L' }, true)).toEqual({});
    expect(contactErrors({ ...values, identNumber: 'ANYTHING', country: 'FR' }, true)).toEqual({});
    expect(contactErrors({ ...values, phone: '912345678' }, true)).toEqual({ phone: 'domain.error.phone' });
    expect(contactErrors({ ...values, postalCode: '123456' }, true)).toEqual({
      postalCode: 'domain.error.postal_code',
    });
    expect(contactErrors({ ...values, postalCode: '123456' }, false)).toEqual({});
  });

  it('copies another role (owner only with owner-contact visibility), keeping the edit mode', () => {
    expect(copySources('tech', true)).toEqual(['registrant', 'admin', 'billing']);
    expect(copySources('tech', false)).toEqual(['admin', 'billing']);
    expect(copySources('registrant', true)).toEqual(['admin', 'billing', 'tech']);
    const current: ContactFormValues = { ...contactToValues(person), mode: 'all_contacts' };
    const copied = copyFrom(current, data, 'registrant');
    expect(copied).toMatchObject({ isOrg: true, orgName: 'Demo Hosting S.L.', identNumber: 'B12345674', state: 'B' });
    expect(copied.mode).toBe('all_contacts');
  });

  it('sends the role as type, isOrg 0|1 and the organisation name only for organisations', () => {
    const values: ContactFormValues = { ...contactToValues(person), orgName: 'left over', mode: 'only_domain' };
    expect(contactPayload('tech', values)).toMatchObject({
      type: 'tech',
      isOrg: '0',
      orgName: '',
      mode: 'only_domain',
      country: 'ES',
    });
    expect(contactPayload('registrant', { ...values, isOrg: true })).toMatchObject({
      isOrg: '1',
      orgName: 'left over',
    });
  });
});
