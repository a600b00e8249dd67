import { XMLBuilder } from 'fast-xml-parser';
import type { MailClientSettings, MailServer } from './mail-client-settings.ts';

const builder = new XMLBuilder({ ignoreAttributes: false, format: true });

function server(type: 'imap' | 'smtp', s: MailServer) {
  return {
    '@_type': type,
    hostname: s.host,
    port: s.port,
    socketType: s.security === 'tls' ? 'SSL' : 'STARTTLS',
    authentication: 'password-cleartext',
    // Thunderbird fills in the address the user typed: the document never repeats it.
    username: '%EMAILADDRESS%',
  };
}

/**
 * Thunderbird's autoconfig (clientConfig 1.1, as its ISPDB files are written). The same document
 * for every address of the domain, so it tells nothing of which mailboxes exist.
 */
export function autoconfigXml(settings: MailClientSettings): string {
  const body = builder.build({
    clientConfig: {
      '@_version': '1.1',
      emailProvider: {
        '@_id': settings.domain,
        domain: settings.domain,
        displayName: settings.provider,
        displayShortName: settings.provider,
        incomingServer: settings.imap.map((s) => server('imap', s)),
        outgoingServer: settings.smtp.map((s) => server('smtp', s)),
      },
    },
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}
