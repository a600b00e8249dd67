import { isHostName, toAsciiName } from '@panel247/contract/dns-rules';
import type { ConnectionData } from '@panel247/contract/mail';
import { isLocalPart } from '@panel247/contract/mail-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';

/**
 * One server a mail client connects to, as deploy/ serves it: the SSL ports (993, 465) speak TLS
 * from the first byte; the others (143, 587) start in the clear and refuse a login until the
 * client has said STARTTLS. Both need a password.
 */
export type MailSecurity = 'tls' | 'starttls';

export interface MailServer {
  host: string;
  port: number;
  security: MailSecurity;
}

/** What every set-up document says, from the connection data the mail view's dialog shows. */
export interface MailClientSettings {
  domain: string;
  /** The brand's name, shown by the clients as the provider. */
  provider: string;
  /** Best first: the SSL host (implicit TLS), then the domain's own host (STARTTLS). */
  imap: MailServer[];
  smtp: MailServer[];
}

export function clientSettings(domain: string, provider: string, data: ConnectionData): MailClientSettings {
  return {
    domain,
    provider,
    imap: [
      { host: data.ssl.imap, port: data.ports.imap.ssl, security: 'tls' },
      { host: data.plain.imap, port: data.ports.imap.plain, security: 'starttls' },
    ],
    smtp: [
      { host: data.ssl.smtp, port: data.ports.smtp.ssl, security: 'tls' },
      { host: data.plain.smtp, port: data.ports.smtp.plain, security: 'starttls' },
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
