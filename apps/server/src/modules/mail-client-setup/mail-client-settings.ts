import { isHostName, toAsciiName } from '@panel247/contract/dns-rules';
import type { ConnectionData } from '@panel247/contract/mail';
import { isLocalPart } from '@panel247/contract/mail-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';

/** One server a mail client connects to: SSL is implicit TLS (993, 465), else no TLS at all. */
export interface MailServer {
  host: string;
  port: number;
  ssl: boolean;
}

/** What every set-up document says, from the connection data the mail view's dialog shows. */
export interface MailClientSettings {
  domain: string;
  /** The brand's name, shown by the clients as the provider. */
  provider: string;
  /** Best first: the SSL host, then the domain's own host without SSL. */
  imap: MailServer[];
  smtp: MailServer[];
}

export function clientSettings(domain: string, provider: string, data: ConnectionData): MailClientSettings {
  return {
    domain,
    provider,
    imap: [
      { host: data.ssl.imap, port: data.ports.imap.ssl, ssl: true },
      { host: data.plain.imap, port: data.ports.imap.plain, ssl: false },
    ],
    smtp: [
      { host: data.ssl.smtp, port: data.ports.smtp.ssl, ssl: true },
      { host: data.plain.smtp, port: data.ports.smtp.plain, ssl: false },
    ],
  };
}

/** RFC 5321's longest forward path, less the angle brackets. */
const ADDRESS_MAX = 254;

/**
 * An address a client asks about, or undefined: the panel's own allow-list of local parts (no
 * mailbox here can have another) and a host name (an IDN is taken in its punycode form), in
 * lower case. Only then does the domain reach a query; the local part never does.
 */
export function parseClientAddress(raw: string): { address: string; domain: string } | undefined {
  if (raw.length > ADDRESS_MAX || hasControlCharacters(raw)) return undefined;
  const at = raw.lastIndexOf('@');
  if (at < 1 || raw.indexOf('@') !== at) return undefined;
  const local = raw.slice(0, at).toLowerCase();
  const domain = toAsciiName(raw.slice(at + 1));
  if (!isLocalPart(local) || !domain || !isHostName(domain) || domain.endsWith('.')) return undefined;
  return { address: `${local}@${domain}`, domain };
}

/** The mail domain a set-up host names: `autoconfig.<domain>`, `autodiscover.<domain>` or the domain. */
export function domainOfSetupHost(host: string): string | undefined {
  const bare = host.replace(/^(autoconfig|autodiscover)\./, '');
  return isHostName(bare) && !bare.endsWith('.') ? bare : undefined;
}
