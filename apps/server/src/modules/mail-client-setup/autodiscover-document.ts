import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import type { MailClientSettings, MailServer } from './mail-client-settings.ts';

export const AUTODISCOVER_RESPONSE_SCHEMA =
  'http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a';
const RESPONSE_ROOT_NS = 'http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006';

/** A request is a few hundred bytes; anything much larger is not one. */
export const AUTODISCOVER_REQUEST_MAX_BYTES = 8 * 1024;

// Entities stay text (never expanded) and namespace prefixes go, so `a:EMailAddress` reads as
// `EMailAddress`; a DOCTYPE never gets here (see readAutodiscoverRequest).
const parser = new XMLParser({
  processEntities: false,
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
});
const builder = new XMLBuilder({ ignoreAttributes: false, format: true });

/**
 * The address and the schema an Outlook autodiscover request asks for, or undefined when the body
 * is not one. A DOCTYPE, an entity declaration, a comment or CDATA (anything starting `<!`) is
 * refused before parsing: a request has none, and the parser then has nothing to expand.
 */
export function readAutodiscoverRequest(body: string): { email: string; schema: string | undefined } | undefined {
  if (body.length > AUTODISCOVER_REQUEST_MAX_BYTES || body.includes('<!')) return undefined;
  if (XMLValidator.validate(body) !== true) return undefined;
  let parsed: unknown;
  try {
    parsed = parser.parse(body);
  } catch {
    return undefined;
  }
  const request = (parsed as { Autodiscover?: { Request?: Record<string, unknown> } })?.Autodiscover?.Request;
  const email = request?.EMailAddress;
  const schema = request?.AcceptableResponseSchema;
  if (typeof email !== 'string') return undefined;
  if (schema !== undefined && typeof schema !== 'string') return undefined;
  return { email: email.trim(), schema: typeof schema === 'string' ? schema.trim() : undefined };
}

function protocol(type: 'IMAP' | 'SMTP', s: MailServer, address: string) {
  return {
    Type: type,
    Server: s.host,
    Port: s.port,
    DomainRequired: 'off',
    LoginName: address,
    SPA: 'off',
    // on: TLS, the only way to log in; Encryption says which (SSL = implicit, TLS = STARTTLS)
    SSL: 'on',
    Encryption: s.security === 'tls' ? 'SSL' : 'TLS',
    AuthRequired: 'on',
  };
}

/**
 * Outlook's POX autodiscover answer for an IMAP account: one protocol of each kind (Outlook takes
 * the first), the implicit TLS one. The login is the address the client sent, whether or not a mailbox
 * has it: the answer is the same for every address of the domain.
 */
export function autodiscoverXml(settings: MailClientSettings, address: string): string {
  const [imap] = settings.imap;
  const [smtp] = settings.smtp;
  if (!imap || !smtp) throw new Error('no mail servers');
  const body = builder.build({
    Autodiscover: {
      '@_xmlns': RESPONSE_ROOT_NS,
      Response: {
        '@_xmlns': AUTODISCOVER_RESPONSE_SCHEMA,
        Account: {
          AccountType: 'email',
          Action: 'settings',
          Protocol: [protocol('IMAP', imap, address), protocol('SMTP', smtp, address)],
        },
      },
    },
  });
  return `<?xml version="1.0" encoding="utf-8"?>\n${body}`;
}
