/**
 * The registry driver: what the panel asks of the registry of record. The embedded default is the
 * provider itself acting as registry (the state lives in the panel database and every call simply
 * succeeds); an EPP implementation (RFC 5730-5734, 5910 for DNSSEC) maps each method to one EPP
 * command (domain:update, host:create/update/delete, secDNS add/rem, contact:update) and throws a
 * DaemonError or FieldErrors when the registry refuses, so the service rolls back its transaction.
 */

export interface RegistryContact {
  isOrg: boolean;
  orgName: string;
  firstName: string;
  lastName: string;
  identNumber: string;
  email: string;
  phone: string;
  address: string;
  postalCode: string;
  city: string;
  state: string;
  country: string;
}

export interface RegistryDs {
  keytag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

export interface RegistryDriver {
  readonly kind: 'embedded' | 'epp';
  /** Auth code (or transfer key) for a new or reset domain. */
  newAuthSecret(domain: string, type: 'authcode' | 'transferkey'): Promise<string>;
  setNameservers(domain: string, hosts: string[]): Promise<void>;
  createHost(domain: string, host: string, ipv4: string, ipv6: string): Promise<void>;
  updateHost(domain: string, host: string, ipv4: string, ipv6: string): Promise<void>;
  deleteHost(domain: string, host: string): Promise<void>;
  addDs(domain: string, ds: RegistryDs[]): Promise<void>;
  removeDs(domain: string, ds: RegistryDs[]): Promise<void>;
  setStatus(domain: string, flags: { blocked: boolean; transferBlock: boolean; whoisPrivacy: boolean }): Promise<void>;
  /** `roles` are the domain's roles that now point at this contact data. */
  updateContact(domain: string, roles: string[], contact: RegistryContact, mode: string): Promise<void>;
}
