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
  /** The DS data a registry apart from the panel holds (secDNS); absent for the embedded one, whose DS rows are the panel's. */
  ds?: RegistryDs[];
}

/** Everything the registry holds of a domain that the panel keeps a copy of (for `registry sync`). */
export interface RegistryRecord extends RegistryDomain {
  ds: RegistryDs[];
  authInfo: string;
  /** The addresses of the hosts under the domain (its glue), by name. */
  glue: RegistryGlue[];
}

/** A message the registry queued for the registrar (EPP poll): a transfer, a registry-side change. */
export interface RegistryMessage {
  registry: string;
  id: string;
  queuedAt: number;
  text: string;
  /** '' when the message names no domain. */
  domain: string;
  transfer?: {
    state: 'pending' | 'clientApproved' | 'clientCancelled' | 'clientRejected' | 'serverApproved' | 'serverCancelled';
    /** The registrar that asked for it (the gaining one). */
    requestedBy: string;
    requestedAt: number;
    /** The registrar that acts on it (the losing one), and by when. */
    actionBy: string;
    actionAt: number;
  };
  /** A transfer away from the panel's registrar (it is the one acting on it). */
  outgoing?: boolean;
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
  /**
   * The domain as the registry holds it now (never a cached reading), for comparing with the
   * panel's copy; undefined when the registry does not know it. Only a registry apart from the
   * panel database has one (the embedded one is that database).
   */
  readRecord?(domain: string): Promise<RegistryRecord | undefined>;
  /**
   * Reads every registry's message queue: each message goes to `take`, and is acknowledged
   * only once `take` has kept it (so a message can come twice, never be lost). Answers how many
   * were taken. A registry without a queue (the embedded one) has none.
   */
  drainMessages?(take: (message: RegistryMessage) => Promise<void>): Promise<number>;
  /** Ends what it keeps open (an EPP driver's sessions). */
  close?(): Promise<void>;
}
