/**
 * The registry driver: what the panel asks of the registry of record. The embedded default is the
 * provider itself acting as registry (the state lives in the panel database: reads read it, and
 * every change simply succeeds, the service having written it in the same transaction); an EPP
 * implementation (RFC 5730-5734, 5910 for DNSSEC) maps each method to one EPP command
 * (domain:info, domain:update, host:create/update/delete, secDNS add/rem, contact:update) and
 * throws a DaemonError or FieldErrors when the registry refuses, so the service rolls back its
 * transaction. `createRegistryDriver` picks the implementation from `registry.driver`; services and
 * routes only see this interface.
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

/** A glue record as the panel holds it ('' for an address it does not have). */
export interface RegistryGlue {
  name: string;
  ipv4: string;
  ipv6: string;
}

export interface RegistryDs {
  keytag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

/** What the registry says of a domain (EPP domain:info). */
export interface RegistryDomain {
  /** Delegated name servers, in order. */
  nameservers: string[];
  /** Status the registrant can set: clientUpdateProhibited, clientTransferProhibited, privacy. */
  blocked: boolean;
  transferBlock: boolean;
  whoisPrivacy: boolean;
  /** Expiry, epoch seconds (0 when the registry gives none). */
  expireTs: number;
}

export interface RegistryDriver {
  readonly kind: 'embedded' | 'epp';
  /** The domain as the registry holds it; undefined when it does not know the domain. */
  readDomain(domain: string): Promise<RegistryDomain | undefined>;
  /** The auth code (or transfer key) the registry holds for the domain (EPP domain:info authInfo). */
  readAuthSecret(domain: string, type: 'authcode' | 'transferkey'): Promise<string>;
  /** Auth code (or transfer key) for a new or reset domain. */
  newAuthSecret(domain: string, type: 'authcode' | 'transferkey'): Promise<string>;
  /** `glue`: the panel's glue of the domain (a registry of host attributes takes it with its in-bailiwick servers). */
  setNameservers(domain: string, hosts: string[], glue: RegistryGlue[]): Promise<void>;
  createHost(domain: string, host: string, ipv4: string, ipv6: string): Promise<void>;
  updateHost(domain: string, host: string, ipv4: string, ipv6: string): Promise<void>;
  deleteHost(domain: string, host: string): Promise<void>;
  addDs(domain: string, ds: RegistryDs[]): Promise<void>;
  removeDs(domain: string, ds: RegistryDs[]): Promise<void>;
  setStatus(domain: string, flags: { blocked: boolean; transferBlock: boolean; whoisPrivacy: boolean }): Promise<void>;
  /** `roles` are the domain's roles that now point at this contact data. */
  updateContact(domain: string, roles: string[], contact: RegistryContact, mode: string): Promise<void>;
  /** Ends what it keeps open (an EPP driver's sessions). */
  close?(): Promise<void>;
}
