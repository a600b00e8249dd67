import type { ConnectionData } from '@panel247/contract/mail';

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
 * hosts when the brand has none. The mail view's dialog shows it, and the mail client set-up
 * (autoconfig, autodiscover, .mobileconfig) writes it into its documents.
 */
export function connectionHosts(domain: string, sslHost: string, ports: MailClientPorts): ConnectionData {
  const plain = {
    imap: `imap.${domain}`,
    smtp: `smtp.${domain}`,
    ftp: `ftp.${domain}`,
    bbdd: `bbdd.${domain}`,
  };
  const ssl = sslHost ? { imap: sslHost, smtp: sslHost, ftp: sslHost, bbdd: sslHost } : plain;
  return {
    plain,
    ssl,
    ports: {
      imap: { plain: ports.imapPort, ssl: ports.imapSslPort },
      smtp: { plain: ports.smtpPort, ssl: ports.smtpSslPort },
    },
  };
}
