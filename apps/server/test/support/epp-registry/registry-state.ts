/**
 * What the test registry holds: domains, hosts and contacts as EPP objects (RFC 5731-5733), the
 * DS data of each domain (RFC 5910), redemption (RFC 3915) and each registrar's poll queue.
 */

export interface RegistryHost {
  name: string;
  roid: string;
  addresses: { ip: 'v4' | 'v6'; address: string }[];
  sponsor: string;
  createdAt: Date;
}

export interface RegistryContactObject {
  id: string;
  roid: string;
  name: string;
  org: string;
  street: string[];
  city: string;
  sp: string;
  pc: string;
  cc: string;
  voice: string;
  email: string;
  authInfo: string;
  /** The disclose flag (RFC 5733 section 2.9): false hides the contact in whois. */
  disclosed: boolean;
  sponsor: string;
  createdAt: Date;
}

export interface RegistryDomainObject {
  name: string;
  roid: string;
  statuses: Set<string>;
  registrant: string;
  contacts: { type: string; id: string }[];
  /** Name servers: host object names, or attributes with their glue (per the registry's mode). */
  nameservers: { name: string; addresses: { ip: 'v4' | 'v6'; address: string }[] }[];
  authInfo: string;
  ds: { keyTag: number; alg: number; digestType: number; digest: string }[];
  sponsor: string;
  createdAt: Date;
  expiresAt: Date;
  /** RFC 3915 statuses (redemptionPeriod, pendingRestore…). */
  rgp: Set<string>;
  /** A transfer under way: who asked, when, and when the registry acts. */
  transfer?: { gaining: string; requestedAt: Date; actionAt: Date };
}

/** A domain:trnData (RFC 5731 section 3.2.4) for a poll message. */
function trnData(
  name: string,
  status: string,
  gaining: string,
  requestedAt: Date,
  losing: string,
  actionAt: Date,
): string {
  return (
    '<domain:trnData xmlns:domain="urn:ietf:params:xml:ns:domain-1.0">' +
    `<domain:name>${name}</domain:name><domain:trStatus>${status}</domain:trStatus>` +
    `<domain:reID>${gaining}</domain:reID><domain:reDate>${requestedAt.toISOString()}</domain:reDate>` +
    `<domain:acID>${losing}</domain:acID><domain:acDate>${actionAt.toISOString()}</domain:acDate>` +
    '</domain:trnData>'
  );
}

export interface PollMessage {
  id: string;
  at: Date;
  text: string;
  /** The message's resData (a domain:trnData, a domain:panData…), already written. */
  resData: string;
}

export class RegistryState {
  readonly domains = new Map<string, RegistryDomainObject>();
  readonly hosts = new Map<string, RegistryHost>();
  readonly contacts = new Map<string, RegistryContactObject>();
  readonly queues = new Map<string, PollMessage[]>();
  private roids = 0;
  private messages = 0;

  roid(suffix: string): string {
    this.roids += 1;
    return `${this.roids}-${suffix}`;
  }

  /** A domain of `sponsor` with its registrant (made when missing), as a registrar's earlier create left it. */
  addDomain(
    name: string,
    sponsor: string,
    options: { nameservers?: string[]; expiresAt?: Date; authInfo?: string } = {},
  ): RegistryDomainObject {
    const registrant = `reg-${this.roids + 1}`;
    this.contacts.set(registrant, {
      id: registrant,
      roid: this.roid('CONT'),
      name: 'Registrant',
      org: '',
      street: ['Calle Mayor 1'],
      city: 'Madrid',
      sp: '',
      pc: '28001',
      cc: 'ES',
      voice: '+34.911234567',
      email: 'registrant@example.es',
      authInfo: 'contact-auth-1',
      disclosed: true,
      sponsor,
      createdAt: new Date(),
    });
    const domain: RegistryDomainObject = {
      name,
      roid: this.roid('DOM'),
      statuses: new Set(),
      registrant,
      contacts: [],
      nameservers: (options.nameservers ?? []).map((host) => ({ name: host, addresses: [] })),
      authInfo: options.authInfo ?? 'Auth-Code-0001',
      ds: [],
      sponsor,
      createdAt: new Date(),
      expiresAt: options.expiresAt ?? new Date(Date.UTC(2030, 0, 1)),
      rgp: new Set(),
    };
    for (const host of domain.nameservers) {
      if (!this.hosts.has(host.name))
        this.hosts.set(host.name, {
          name: host.name,
          roid: this.roid('HOST'),
          addresses: [],
          sponsor,
          createdAt: new Date(),
        });
    }
    this.domains.set(name, domain);
    return domain;
  }

  /** Queues a message for a registrar (a transfer out, a change the registry made). */
  enqueue(registrar: string, text: string, resData = ''): PollMessage {
    this.messages += 1;
    const message = { id: String(this.messages), at: new Date(), text, resData };
    const queue = this.queues.get(registrar) ?? [];
    queue.push(message);
    this.queues.set(registrar, queue);
    return message;
  }

  /**
   * Another registrar asks for a domain (RFC 5731 transfer request): the domain becomes
   * pendingTransfer and its sponsor's queue gets the trnData, acting by `actionAt`.
   */
  requestTransfer(name: string, gaining: string, actionAt: Date): PollMessage {
    const domain = this.domains.get(name);
    if (!domain) throw new Error(`no domain ${name}`);
    domain.statuses.add('pendingTransfer');
    const requestedAt = new Date();
    domain.transfer = { gaining, requestedAt, actionAt };
    return this.enqueue(
      domain.sponsor,
      `Transfer requested for ${name}`,
      trnData(name, 'pending', gaining, requestedAt, domain.sponsor, actionAt),
    );
  }

  /** The registry approves a pending transfer at the end of its wait: the gaining registrar sponsors the domain. */
  approveTransfer(name: string): PollMessage {
    const domain = this.domains.get(name);
    if (!domain?.transfer) throw new Error(`no transfer of ${name}`);
    const losing = domain.sponsor;
    const { gaining, requestedAt } = domain.transfer;
    domain.statuses.delete('pendingTransfer');
    domain.sponsor = gaining;
    domain.transfer = undefined;
    return this.enqueue(
      losing,
      `Transfer completed for ${name}`,
      trnData(name, 'serverApproved', gaining, requestedAt, losing, new Date()),
    );
  }

  /** Whether a host is a name server of any domain (RFC 5732: a linked host cannot go). */
  linked(host: string): boolean {
    for (const domain of this.domains.values()) if (domain.nameservers.some((ns) => ns.name === host)) return true;
    return false;
  }

  /** The domain a host name is under, when the registry holds it (the host is subordinate). */
  superordinate(host: string): RegistryDomainObject | undefined {
    for (const domain of this.domains.values()) if (host.endsWith(`.${domain.name}`)) return domain;
    return undefined;
  }
}
