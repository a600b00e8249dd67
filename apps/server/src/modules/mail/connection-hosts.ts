import type { ConnectionData } from '@panel247/contract/mail';
import type { PlacedServers } from '../nodes/placement.service.ts';

/**
 * The mail clients' ports the operator's Dovecot and Postfix listen on (config `mail.*Port`), as
 * deploy/ serves them: the `Ssl` ones speak TLS from the first byte (IMAPS 993, submissions 465);
 * the others (IMAP 143, submission 587) require STARTTLS before a login. Every one needs a login.
 */
export interface MailClientPorts {
  imapPort: number;
  imapSslPort: number;
  smtpPort: number;
  smtpSslPort: number;
}

/**
 * The one source of the connection data (spec: mail view, "connection data"): without SSL the
 * services' prefixes before the reference domain; with SSL the brand's fixed host, or the same
 * hosts when the brand has none. A part of the service on one of the provider's named servers
 * is reached over SSL at that server's own host name (its certificate's), whatever the brand's.
 * The mail view's dialog shows it, and the mail client set-up (autoconfig, autodiscover,
 * .mobileconfig) writes it into its documents.
 */
export function connectionHosts(
  domain: string,
  sslHost: string,
  ports: MailClientPorts,
  servers: PlacedServers = {},
): ConnectionData {
  const plain = {
    imap: `imap.${domain}`,
    smtp: `smtp.${domain}`,
    ftp: `ftp.${domain}`,
    bbdd: `bbdd.${domain}`,
  };
  const shared = sslHost ? { imap: sslHost, smtp: sslHost, ftp: sslHost, bbdd: sslHost } : plain;
  const ssl = {
    imap: servers.mail?.host ?? shared.imap,
    smtp: servers.mail?.host ?? shared.smtp,
    ftp: servers.web?.host ?? shared.ftp,
    bbdd: servers.databases?.host ?? shared.bbdd,
  };
  return {
    plain,
    ssl,
    ports: {
      imap: { plain: ports.imapPort, ssl: ports.imapSslPort },
      smtp: { plain: ports.smtpPort, ssl: ports.smtpSslPort },
    },
  };
}
