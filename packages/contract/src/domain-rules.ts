/**
 * Domain-area rules shared by the server (which enforces them) and the web forms (which show the
 * same errors early). Zod-free. Error values are i18n keys.
 */

import { hasControlCharacters } from './text-rules.ts';

export const DNS_MODES = ['mantenerDNS', 'defaultDNS', 'setDNS'] as const;
export type DnsMode = (typeof DNS_MODES)[number];
export const NAMESERVERS_MIN = 2;
export const NAMESERVERS_MAX = 7;
export const NAMESERVERS_FIXED = 2;
export const PREVIEW_ITEMS = 2;
export const PROPAGATION_HOURS = 24;

export const CONTACT_ROLES = ['registrant', 'admin', 'billing', 'tech'] as const;
export type ContactRole = (typeof CONTACT_ROLES)[number];
export const CONTACT_EDIT_MODES = ['only_contact', 'only_domain', 'all_contacts'] as const;
export type ContactEditMode = (typeof CONTACT_EDIT_MODES)[number];
export const POSTAL_CODE_MAX = 5;

export const DNSSEC_ALGORITHMS: Record<number, string> = {
  1: 'RSA/MD5',
  2: 'Diffie-Hellman',
  3: 'DSA/SHA1',
  5: 'RSA/SHA-1',
  6: 'DSA-NSEC3-SHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  8: 'RSA/SHA-256',
  10: 'RSA/SHA-512',
  12: 'GOST R 34.10-2001',
  13: 'ECDSA P-256/SHA-256',
  14: 'ECDSA P-384/SHA-384',
  15: 'ED25519',
  16: 'ED448',
  253: 'private (domain name)',
  254: 'private (OID)',
};
export const DNSSEC_DIGEST_TYPES: Record<number, string> = {
  1: 'SHA-1',
  2: 'SHA-256',
  3: 'GOST R 34.11-94',
  4: 'SHA-384',
};
/** Hex characters of a digest, by digest type. */
export const DNSSEC_DIGEST_LENGTHS: Record<number, number> = { 1: 40, 2: 64, 3: 64, 4: 96 };
export const DNSSEC_FLAGS: Record<number, string> = { 256: 'ZSK', 257: 'KSK' };
export const DNSSEC_PROTOCOLS: Record<number, string> = { 3: 'DNSSEC' };

/** Full-mode IPv4 as the spec's IP input: four groups of 1-3 digits, each at most 255. */
export function isFullIp(value: string): boolean {
  const groups = value.split('.');
  return groups.length === 4 && groups.every((g) => /^\d{1,3}$/.test(g) && Number(g) <= 255);
}

/**
 * The IP input's typing rules: letters stripped, groups of at most 3 digits, a dot added after 3
 * digits while fewer than 3 dots exist. Partial mode accepts 1-3 groups.
 */
export function maskIpInput(typed: string): string {
  let out = '';
  let group = '';
  for (const char of typed.replace(/[^\d.]/g, '')) {
    const dots = (out.match(/\./g) ?? []).length;
    if (char === '.') {
      if (group !== '' && dots < 3) {
        out += '.';
        group = '';
      }
      continue;
    }
    if (group.length === 3) {
      if (dots >= 3) continue;
      out += '.';
      group = '';
    }
    out += char;
    group += char;
  }
  return out;
}

export function isPartialIp(value: string): boolean {
  const groups = value.split('.');
  return groups.length >= 1 && groups.length <= 3 && groups.every((g) => /^\d{1,3}$/.test(g) && Number(g) <= 255);
}

/** Phone as the registries want it: +prefix.number (e.g. +34.912345678). */
export function isPhone(value: string): boolean {
  return /^\+\d{1,3}\.\d{4,14}$/.test(value);
}

const NIF_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish identification numbers: NIF (DNI), NIE and CIF, with their check characters. */
export function spanishIdKind(raw: string): 'nif' | 'nie' | 'cif' | undefined {
  const value = raw.toUpperCase().replace(/[\s-]/g, '');
  if (/^\d{8}[A-Z]$/.test(value)) {
    return NIF_LETTERS[Number(value.slice(0, 8)) % 23] === value[8] ? 'nif' : undefined;
  }
  if (/^[XYZ]\d{7}[A-Z]$/.test(value)) {
    const number = Number(`${'XYZ'.indexOf(value[0] as string)}${value.slice(1, 8)}`);
    return NIF_LETTERS[number % 23] === value[8] ? 'nie' : undefined;
  }
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(value)) {
    const digits = value.slice(1, 8).split('').map(Number);
    let sum = 0;
    digits.forEach((digit, index) => {
      if (index % 2 === 1) sum += digit;
      else {
        const doubled = digit * 2;
        sum += Math.floor(doubled / 10) + (doubled % 10);
      }
    });
    const control = (10 - (sum % 10)) % 10;
    const letter = 'JABCDEFGHI'[control] as string;
    const given = value[8] as string;
    const first = value[0] as string;
    if ('KPQSNW'.includes(first)) return given === letter ? 'cif' : undefined;
    if ('ABEH'.includes(first)) return given === String(control) ? 'cif' : undefined;
    return given === String(control) || given === letter ? 'cif' : undefined;
  }
  return undefined;
}

export interface ContactInput {
  isOrg: boolean;
  firstName: string;
  lastName: string;
  identNumber: string;
  orgName: string;
  email: string;
  phone: string;
  postalCode: string;
  country: string;
  state: string;
  city: string;
  address: string;
}

export type ContactFieldError = { field: keyof ContactInput; messageKey: string };

/** The fields a contact must have: the organisation name only for organisations. */
export function requiredContactFields(isOrg: boolean): (keyof ContactInput)[] {
  const fields: (keyof ContactInput)[] = [
    'firstName',
    'lastName',
    'identNumber',
    'email',
    'phone',
    'country',
    'state',
    'city',
    'address',
    'postalCode',
  ];
  return isOrg ? ['orgName', ...fields] : fields;
}

/** The contact form's rules; the server adds the address data set checks. */
export function validateContact(input: ContactInput): ContactFieldError[] {
  const errors: ContactFieldError[] = [];
  for (const field of requiredContactFields(input.isOrg)) {
    const value = String(input[field] ?? '');
    if (value.trim() === '') errors.push({ field, messageKey: 'validation.required' });
  }
  for (const field of Object.keys(input) as (keyof ContactInput)[]) {
    const value = input[field];
    if (typeof value === 'string' && (hasControlCharacters(value) || value.length > 255)) {
      if (!errors.some((e) => e.field === field)) errors.push({ field, messageKey: 'validation.control_chars' });
    }
  }
  const has = (field: keyof ContactInput) => !errors.some((e) => e.field === field);
  if (has('email') && !/^[^\s@"<>(),;:\\[\]]+@[^\s@]+\.[a-z]{2,}$/i.test(input.email)) {
    errors.push({ field: 'email', messageKey: 'validation.email' });
  }
  if (has('phone') && !isPhone(input.phone)) errors.push({ field: 'phone', messageKey: 'domain.error.phone' });
  if (has('postalCode') && input.postalCode.length > 10) {
    errors.push({ field: 'postalCode', messageKey: 'domain.error.postal_code' });
  }
  if (has('identNumber') && input.country === 'ES' && !spanishIdKind(input.identNumber)) {
    errors.push({ field: 'identNumber', messageKey: 'domain.error.spanish_id' });
  }
  return errors;
}

/** Label of the identification number: VAT for organisations, NIF otherwise. */
export function identLabelKey(isOrg: boolean): string {
  return isOrg ? 'domain.contact.vat' : 'domain.contact.nif';
}
