import type { DefaultRecord } from '@panel247/contract/dns-default-records';
import { isDmarcText, isSpfText } from '@panel247/contract/mail-auth-rules';

/** What the mail authentication needs of the DNS zone (the DNS service's actor-less calls). */
export interface MailZone {
  /** The hosted zone's records; undefined when the service's zone is not hosted here. */
  recordsForBackup(serviceId: number): Promise<DefaultRecord[] | undefined>;
  replaceOwnedTxt(
    service: { serviceId: number; reference: string; referencePunycode: string },
    zona: string,
    owned: (value: string) => boolean,
    values: string[],
  ): Promise<{ hosted: boolean; published: boolean }>;
}

export interface MailAuthSettings {
  /** How long a replaced key's record stays published. */
  retireSeconds: number;
  /** The provider's SPF include and DMARC report address (a zone elsewhere starts with them). */
  spfInclude: string;
  dmarcReport: string;
  /**
   * The zones here are served by no DNS server (the `database` DNS driver): a hosted zone's record
   * then "resolves" once it is in the zone; resolvers are asked only for zones elsewhere.
   */
  zonesOnlyHere: boolean;
}

/** A service's mail domain, as DKIM, SPF and DMARC use it. */
export interface MailDomain {
  serviceId: number;
  reference: string;
  referencePunycode: string;
}

export const isDkim = (value: string) => /^v=DKIM1;/i.test(value.trim());
export const isSpf = isSpfText;
export const isDmarc = isDmarcText;
