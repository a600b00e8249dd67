import { createHash } from 'node:crypto';
import { XMLBuilder } from 'fast-xml-parser';
import type { MailClientSettings } from './mail-client-settings.ts';

type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };
type OrderedNode = Record<string, OrderedNode[] | string | number | Record<string, string>>;

// preserveOrder: a plist dict is a flat run of <key> and value elements, in order.
const builder = new XMLBuilder({ preserveOrder: true, format: true, ignoreAttributes: false, suppressEmptyNode: true });

function node(value: PlistValue): OrderedNode {
  if (typeof value === 'string') return { string: [{ '#text': value }] };
  if (typeof value === 'number') return { integer: [{ '#text': value }] };
  if (typeof value === 'boolean') return { [value ? 'true' : 'false']: [] };
  if (Array.isArray(value)) return { array: value.map(node) };
  return { dict: Object.entries(value).flatMap(([key, v]) => [{ key: [{ '#text': key }] }, node(v)]) };
}

/** An Apple property list (XML form) of `value`. */
export function plistXml(value: PlistValue): string {
  const body = builder.build([{ plist: [node(value)], ':@': { '@_version': '1.0' } }]);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
    body
  );
}

/**
 * A UUID that stays the same for the same profile, so installing it again replaces the
 * earlier one instead of adding a second account.
 */
function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`.toUpperCase();
}

/**
 * An unsigned configuration profile with one IMAP account (com.apple.mail.managed) over SSL.
 * No password: iOS and macOS ask for it when the profile is installed.
 */
export function mobileconfigXml(settings: MailClientSettings, address: string): string {
  const [imap] = settings.imap;
  const [smtp] = settings.smtp;
  if (!imap || !smtp) throw new Error('no mail servers');
  // Reverse-DNS identifiers, as Apple asks: the domain's labels reversed, then the mailbox.
  const base = `${settings.domain.split('.').reverse().join('.')}.mail`;
  const local = address.slice(0, address.lastIndexOf('@'));
  const accountId = `${base}.${local.replace(/[^a-z0-9-]/g, '-')}`;
  return plistXml({
    PayloadContent: [
      {
        PayloadType: 'com.apple.mail.managed',
        PayloadVersion: 1,
        PayloadIdentifier: `${accountId}.account`,
        PayloadUUID: stableUuid(`account:${address}`),
        PayloadDisplayName: address,
        EmailAccountDescription: `${settings.provider} (${address})`,
        EmailAccountType: 'EmailTypeIMAP',
        EmailAddress: address,
        IncomingMailServerAuthentication: 'EmailAuthPassword',
        IncomingMailServerHostName: imap.host,
        IncomingMailServerPortNumber: imap.port,
        // Apple's UseSSL is TLS of either kind (implicit or STARTTLS, by the port): always on here.
        IncomingMailServerUseSSL: true,
        IncomingMailServerUsername: address,
        OutgoingMailServerAuthentication: 'EmailAuthPassword',
        OutgoingMailServerHostName: smtp.host,
        OutgoingMailServerPortNumber: smtp.port,
        OutgoingMailServerUseSSL: true,
        OutgoingMailServerUsername: address,
        OutgoingPasswordSameAsIncomingPassword: true,
      },
    ],
    PayloadDisplayName: address,
    PayloadDescription: settings.provider,
    PayloadIdentifier: accountId,
    PayloadOrganization: settings.provider,
    PayloadType: 'Configuration',
    PayloadUUID: stableUuid(`profile:${address}`),
    PayloadVersion: 1,
  });
}
