import type { RegistryContact, RegistryDs } from '../registry.driver.ts';
import {
  CONTACT_NS,
  DOMAIN_NS,
  type EppResponse,
  HOST_NS,
  RGP_NS,
  SECDNS_NS,
  textOf,
  type XmlNode,
  xmlText,
} from './epp-xml.ts';

/**
 * The EPP commands the registry driver sends (RFC 5731 domains, 5732 hosts, 5733 contacts, 5910
 * DS data, 3915 redemption) and the readings of their answers. Each builder returns the command's
 * element (and its extension's, where it has one); `EppPool.command` wraps and sends it.
 */

export interface EppVerb {
  verb: string;
  extension?: string;
}

const ns = (prefix: string, uri: string) => `xmlns:${prefix}="${uri}"`;

/** The statuses a registrar sets itself (RFC 5731 section 2.3): the panel's locks. */
export const UPDATE_LOCK = 'clientUpdateProhibited';
export const TRANSFER_LOCK = 'clientTransferProhibited';

/** A host as a domain names it: its name, and its addresses when they are its glue. */
export interface EppHost {
  name: string;
  addresses: { ip: 'v4' | 'v6'; address: string }[];
}

function hostAddresses(prefix: 'host' | 'domain', element: string, host: EppHost): string {
  return host.addresses
    .map((a) => `<${prefix}:${element} ip="${a.ip}">${xmlText(a.address)}</${prefix}:${element}>`)
    .join('');
}

/** `<domain:ns>` with host objects (names) or host attributes (names and glue), per the registry. */
function domainNs(hosts: EppHost[], hostObjects: boolean): string {
  if (hosts.length === 0) return '';
  const inner = hostObjects
    ? hosts.map((host) => `<domain:hostObj>${xmlText(host.name)}</domain:hostObj>`).join('')
    : hosts
        .map(
          (host) =>
            `<domain:hostAttr><domain:hostName>${xmlText(host.name)}</domain:hostName>${hostAddresses('domain', 'hostAddr', host)}</domain:hostAttr>`,
        )
        .join('');
  return `<domain:ns>${inner}</domain:ns>`;
}

export const eppCommands = {
  domainInfo(domain: string, authInfo?: string): EppVerb {
    const auth = authInfo ? `<domain:authInfo><domain:pw>${xmlText(authInfo)}</domain:pw></domain:authInfo>` : '';
    return {
      verb: `<info><domain:info ${ns('domain', DOMAIN_NS)}><domain:name hosts="all">${xmlText(domain)}</domain:name>${auth}</domain:info></info>`,
    };
  },

  /**
   * One domain:update: what it adds and removes (name servers, statuses) and changes (the
   * registrant, the auth code), and DS data through secDNS-1.1 (RFC 5910 section 5.2.5).
   */
  domainUpdate(
    domain: string,
    change: {
      addHosts?: EppHost[];
      removeHosts?: EppHost[];
      addStatus?: string[];
      removeStatus?: string[];
      addContacts?: { type: string; id: string }[];
      removeContacts?: { type: string; id: string }[];
      registrant?: string;
      authInfo?: string;
      addDs?: RegistryDs[];
      removeDs?: RegistryDs[];
    },
    hostObjects: boolean,
  ): EppVerb {
    const part = (
      element: 'add' | 'rem',
      hosts: EppHost[] = [],
      statuses: string[] = [],
      contacts: { type: string; id: string }[] = [],
    ) => {
      const inner =
        domainNs(hosts, hostObjects) +
        contacts.map((c) => `<domain:contact type="${xmlText(c.type)}">${xmlText(c.id)}</domain:contact>`).join('') +
        statuses.map((s) => `<domain:status s="${xmlText(s)}"/>`).join('');
      return inner ? `<domain:${element}>${inner}</domain:${element}>` : '';
    };
    const chgInner =
      (change.registrant ? `<domain:registrant>${xmlText(change.registrant)}</domain:registrant>` : '') +
      (change.authInfo ? `<domain:authInfo><domain:pw>${xmlText(change.authInfo)}</domain:pw></domain:authInfo>` : '');
    const body =
      part('add', change.addHosts, change.addStatus, change.addContacts) +
      part('rem', change.removeHosts, change.removeStatus, change.removeContacts) +
      (chgInner ? `<domain:chg>${chgInner}</domain:chg>` : '');
    const ds = (list: RegistryDs[] = []) =>
      list
        .map(
          (d) =>
            `<secDNS:dsData><secDNS:keyTag>${d.keytag}</secDNS:keyTag><secDNS:alg>${d.algorithm}</secDNS:alg><secDNS:digestType>${d.digestType}</secDNS:digestType><secDNS:digest>${xmlText(d.digest)}</secDNS:digest></secDNS:dsData>`,
        )
        .join('');
    const secDns =
      change.addDs?.length || change.removeDs?.length
        ? `<secDNS:update ${ns('secDNS', SECDNS_NS)}>${change.removeDs?.length ? `<secDNS:rem>${ds(change.removeDs)}</secDNS:rem>` : ''}${change.addDs?.length ? `<secDNS:add>${ds(change.addDs)}</secDNS:add>` : ''}</secDNS:update>`
        : '';
    return {
      verb: `<update><domain:update ${ns('domain', DOMAIN_NS)}><domain:name>${xmlText(domain)}</domain:name>${body}</domain:update></update>`,
      extension: secDns,
    };
  },

  /** RGP restore request (RFC 3915 section 4.2.5): a domain in its redemption period back. */
  domainRestore(domain: string): EppVerb {
    return {
      verb: `<update><domain:update ${ns('domain', DOMAIN_NS)}><domain:name>${xmlText(domain)}</domain:name><domain:chg/></domain:update></update>`,
      extension: `<rgp:update ${ns('rgp', RGP_NS)}><rgp:restore op="request"/></rgp:update>`,
    };
  },

  hostCheck(names: string[]): EppVerb {
    const list = names.map((name) => `<host:name>${xmlText(name)}</host:name>`).join('');
    return { verb: `<check><host:check ${ns('host', HOST_NS)}>${list}</host:check></check>` };
  },

  hostInfo(name: string): EppVerb {
    return {
      verb: `<info><host:info ${ns('host', HOST_NS)}><host:name>${xmlText(name)}</host:name></host:info></info>`,
    };
  },

  hostCreate(host: EppHost): EppVerb {
    return {
      verb: `<create><host:create ${ns('host', HOST_NS)}><host:name>${xmlText(host.name)}</host:name>${hostAddresses('host', 'addr', host)}</host:create></create>`,
    };
  },

  hostUpdate(name: string, add: EppHost['addresses'], remove: EppHost['addresses']): EppVerb {
    const part = (element: 'add' | 'rem', addresses: EppHost['addresses']) =>
      addresses.length
        ? `<host:${element}>${hostAddresses('host', 'addr', { name, addresses })}</host:${element}>`
        : '';
    return {
      verb: `<update><host:update ${ns('host', HOST_NS)}><host:name>${xmlText(name)}</host:name>${part('add', add)}${part('rem', remove)}</host:update></update>`,
    };
  },

  hostDelete(name: string): EppVerb {
    return {
      verb: `<delete><host:delete ${ns('host', HOST_NS)}><host:name>${xmlText(name)}</host:name></host:delete></delete>`,
    };
  },

  contactInfo(id: string): EppVerb {
    return {
      verb: `<info><contact:info ${ns('contact', CONTACT_NS)}><contact:id>${xmlText(id)}</contact:id></contact:info></info>`,
    };
  },

  contactCreate(id: string, contact: RegistryContact, authInfo: string, hidden: boolean): EppVerb {
    return {
      verb: `<create><contact:create ${ns('contact', CONTACT_NS)}><contact:id>${xmlText(id)}</contact:id>${contactData(contact)}<contact:authInfo><contact:pw>${xmlText(authInfo)}</contact:pw></contact:authInfo>${disclose(hidden)}</contact:create></create>`,
    };
  },

  contactUpdate(id: string, change: { contact?: RegistryContact; hidden?: boolean }): EppVerb {
    const chg =
      change.contact || change.hidden !== undefined
        ? `<contact:chg>${change.contact ? contactData(change.contact) : ''}${change.hidden !== undefined ? disclose(change.hidden) : ''}</contact:chg>`
        : '';
    return {
      verb: `<update><contact:update ${ns('contact', CONTACT_NS)}><contact:id>${xmlText(id)}</contact:id>${chg}</contact:update></update>`,
    };
  },

  pollRequest(): EppVerb {
    return { verb: '<poll op="req"/>' };
  },

  pollAck(id: string): EppVerb {
    return { verb: `<poll op="ack" msgID="${xmlText(id)}"/>` };
  },
};

/** postalInfo (internationalised form), voice and email (RFC 5733 section 3.2.1). */
function contactData(contact: RegistryContact): string {
  const name = holderNameOf(contact);
  const street = contact.address
    .split(/\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 3)
    .map((line) => `<contact:street>${xmlText(line)}</contact:street>`)
    .join('');
  const org = contact.isOrg && contact.orgName ? `<contact:org>${xmlText(contact.orgName)}</contact:org>` : '';
  const sp = contact.state ? `<contact:sp>${xmlText(contact.state)}</contact:sp>` : '';
  const pc = contact.postalCode ? `<contact:pc>${xmlText(contact.postalCode)}</contact:pc>` : '';
  return (
    `<contact:postalInfo type="int"><contact:name>${xmlText(name)}</contact:name>${org}` +
    `<contact:addr>${street}<contact:city>${xmlText(contact.city)}</contact:city>${sp}${pc}<contact:cc>${xmlText(contact.country.toUpperCase())}</contact:cc></contact:addr></contact:postalInfo>` +
    (contact.phone ? `<contact:voice>${xmlText(contact.phone)}</contact:voice>` : '') +
    `<contact:email>${xmlText(contact.email)}</contact:email>`
  );
}

/** Whois privacy: name, address, phone and e-mail not disclosed (flag 0), or all disclosed (flag 1). */
function disclose(hidden: boolean): string {
  return `<contact:disclose flag="${hidden ? 0 : 1}"><contact:name type="int"/><contact:addr type="int"/><contact:voice/><contact:email/></contact:disclose>`;
}

/** What a domain:info answers (RFC 5731 section 3.1.2). */
export interface EppDomainInfo {
  name: string;
  statuses: string[];
  registrant: string;
  contacts: { type: string; id: string }[];
  hosts: EppHost[];
  /** Subordinate hosts (in-bailiwick names the registry holds under this domain). */
  subordinates: string[];
  expiresAt: number;
  authInfo: string;
  /** RGP statuses (redemptionPeriod, pendingRestore…), when the registry speaks RFC 3915. */
  rgp: string[];
  /** DS data (RFC 5910 infData). */
  ds: RegistryDs[];
}

function epochOf(date: string): number {
  const ms = Date.parse(date);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}

function readHosts(nsNode: XmlNode): EppHost[] {
  if (!nsNode) return [];
  const objects: EppHost[] = (nsNode.hostObj ?? []).map((name: XmlNode) => ({
    name: textOf(name).toLowerCase(),
    addresses: [],
  }));
  const attributes: EppHost[] = (nsNode.hostAttr ?? []).map((attr: XmlNode) => ({
    name: textOf(attr.hostName).toLowerCase(),
    addresses: (attr.hostAddr ?? []).map((addr: XmlNode) => ({
      ip: addr['@ip'] === 'v6' ? ('v6' as const) : ('v4' as const),
      address: textOf(addr),
    })),
  }));
  return [...objects, ...attributes];
}

export function readDomainInfo(response: EppResponse): EppDomainInfo {
  const data = response.resData.infData ?? {};
  const secDns = response.extension.infData?.dsData ?? [];
  return {
    name: textOf(data.name).toLowerCase(),
    statuses: (data.status ?? []).map((status: XmlNode) => String(status['@s'] ?? '')),
    registrant: textOf(data.registrant),
    contacts: (data.contact ?? []).map((c: XmlNode) => ({ type: String(c['@type'] ?? ''), id: textOf(c) })),
    hosts: readHosts(data.ns),
    subordinates: (data.host ?? []).map((h: XmlNode) => textOf(h).toLowerCase()),
    expiresAt: epochOf(textOf(data.exDate)),
    authInfo: textOf(data.authInfo?.pw),
    rgp: (response.extension.infData?.rgpStatus ?? []).map((s: XmlNode) => String(s['@s'] ?? '')),
    ds: secDns.map((d: XmlNode) => ({
      keytag: Number(textOf(d.keyTag)),
      algorithm: Number(textOf(d.alg)),
      digestType: Number(textOf(d.digestType)),
      digest: textOf(d.digest).toUpperCase(),
    })),
  };
}

/** A host:info's addresses (RFC 5732 section 3.1.2). */
export function readHostAddresses(response: EppResponse): EppHost['addresses'] {
  return (response.resData.infData?.addr ?? []).map((addr: XmlNode) => ({
    ip: addr['@ip'] === 'v6' ? ('v6' as const) : ('v4' as const),
    address: textOf(addr),
  }));
}

/** host:check: the names the registry does not hold yet. */
export function readAvailableHosts(response: EppResponse): Set<string> {
  const items: XmlNode[] = [response.resData.chkData?.cd ?? []].flat();
  return new Set(
    items
      .filter((cd) => ['1', 'true'].includes(String(cd.name?.['@avail'])))
      .map((cd) => textOf(cd.name).toLowerCase()),
  );
}

/** contact:info's disclose flag: whether the contact is hidden (whois privacy). */
export function readContactHidden(response: EppResponse): boolean {
  return String(response.resData.infData?.disclose?.['@flag'] ?? '1') === '0';
}

/** Who a contact is (contact:info's name and organisation, the first postalInfo given). */
export function readContactHolder(response: EppResponse): { name: string; org: string } {
  const postal = response.resData.infData?.postalInfo?.[0] ?? {};
  return { name: textOf(postal.name), org: textOf(postal.org) };
}

/** The name a contact's postalInfo gets from the panel's contact data. */
export function holderNameOf(contact: RegistryContact): string {
  return contact.isOrg ? contact.orgName : `${contact.firstName} ${contact.lastName}`.trim();
}

/** A transfer's states (RFC 5730 section 2.9.3.4, trStatusType). */
export const TRANSFER_STATES = [
  'pending',
  'clientApproved',
  'clientCancelled',
  'clientRejected',
  'serverApproved',
  'serverCancelled',
] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

/** A message of the poll queue (RFC 5730 section 2.9.2.3) with what the panel reads of its data. */
export interface EppPollMessage {
  id: string;
  queuedAt: number;
  text: string;
  /** The domain its data names ('' when it names none: a contact's transfer, a plain notice). */
  domain: string;
  /** A domain transfer (domain:trnData, RFC 5731 section 3.2.4): who asked and who loses it. */
  transfer?: { state: TransferState; requestedBy: string; requestedAt: number; actionBy: string; actionAt: number };
  /** The outcome of an action the registry had left pending (domain:panData, RFC 5731 section 3.3). */
  pendingAction?: { done: boolean };
}

export function readPollMessage(response: EppResponse): EppPollMessage {
  const queue = response.queue ?? { id: '', date: '', message: '', count: 0 };
  const transfer = response.resData.trnData;
  const pending = response.resData.panData;
  const state = String(textOf(transfer?.trStatus)) as TransferState;
  return {
    id: queue.id,
    queuedAt: epochOf(queue.date),
    text: queue.message,
    domain: textOf(transfer?.name ?? pending?.name).toLowerCase(),
    ...(transfer?.name && TRANSFER_STATES.includes(state)
      ? {
          transfer: {
            state,
            requestedBy: textOf(transfer.reID),
            requestedAt: epochOf(textOf(transfer.reDate)),
            actionBy: textOf(transfer.acID),
            actionAt: epochOf(textOf(transfer.acDate)),
          },
        }
      : {}),
    ...(pending?.name ? { pendingAction: { done: ['1', 'true'].includes(String(pending.name['@paResult'])) } } : {}),
  };
}
