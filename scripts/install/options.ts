import { isIPv4, isIPv6 } from 'node:net';
import { isDocumentationValue } from '../../apps/server/src/dns-placeholders.ts';

/**
 * What the installer needs to know about the provider, each taken from a flag (or asked when a
 * terminal is attached) and checked against an allow-list before it reaches a file or a command:
 * these values end up in the panel's environment file, daemons' configurations and a certificate.
 */
export interface InstallOptions {
  /** The provider's name (the self-signed certificates' organisation). */
  provider: string;
  /** The panel's own host name (its TLS proxy, phpMyAdmin and WebMail sign-on links). */
  panelHost: string;
  /** The MX host's name: Postfix's myhostname, the mail clients' server. */
  mailHost: string;
  nameservers: string[];
  ipv4: string;
  /** Empty: customers' zones get no AAAA record. */
  ipv6: string;
  /** Empty: the SPF record names no include. */
  spfInclude: string;
  /** Empty: the DMARC record asks for no reports. */
  dmarcReport: string;
  acmeEmail: string;
  /** Documentation values (.test names, 192.0.2.x) allowed: a trial machine, never a customer's. */
  trial: boolean;
}

type Kind = 'provider' | 'host' | 'hosts' | 'ipv4' | 'ipv6' | 'email';

interface FlagSpec {
  flag: string;
  key: Exclude<keyof InstallOptions, 'trial'>;
  kind: Kind;
  /** May be given as an empty value (the record is left out). */
  optional: boolean;
  question: string;
}

export const FLAGS: readonly FlagSpec[] = [
  { flag: '--provider', key: 'provider', kind: 'provider', optional: false, question: "The provider's name" },
  { flag: '--panel-host', key: 'panelHost', kind: 'host', optional: false, question: "The panel's host name" },
  { flag: '--mail-host', key: 'mailHost', kind: 'host', optional: false, question: "The mail (MX) host's name" },
  {
    flag: '--nameservers',
    key: 'nameservers',
    kind: 'hosts',
    optional: false,
    question: 'The name servers, comma-separated',
  },
  { flag: '--ipv4', key: 'ipv4', kind: 'ipv4', optional: false, question: "This machine's public IPv4 address" },
  { flag: '--ipv6', key: 'ipv6', kind: 'ipv6', optional: true, question: 'Its public IPv6 address (empty: none)' },
  {
    flag: '--spf-include',
    key: 'spfInclude',
    kind: 'host',
    optional: true,
    question: "The SPF include customers' zones get (empty: none)",
  },
  {
    flag: '--dmarc-report',
    key: 'dmarcReport',
    kind: 'email',
    optional: true,
    question: 'The DMARC report address (empty: none)',
  },
  { flag: '--acme-email', key: 'acmeEmail', kind: 'email', optional: false, question: "The ACME account's e-mail" },
];

const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const EMAIL_LOCAL = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/;
// Letters, digits, spaces and a little punctuation: no quote, backslash, $ or line break that
// could end a value in the environment file or the certificate's subject.
const PROVIDER = /^[\p{L}\p{N}][\p{L}\p{N} .,&()-]{0,62}[\p{L}\p{N}.)]$/u;

/** Why a value is not accepted for its kind, or undefined when it is. */
export function invalidReason(kind: Kind, value: string): string | undefined {
  switch (kind) {
    case 'provider':
      return PROVIDER.test(value) ? undefined : 'letters, digits, spaces and . , & ( ) - only, 2 to 64 characters';
    case 'host':
      return HOST.test(value) ? undefined : 'a lower-case host name with a dot, such as panel.provider.com';
    case 'hosts': {
      const names = value.split(',');
      if (names.length < 2 || names.length > 6) return 'two to six host names, comma-separated';
      return names.every((name) => HOST.test(name)) ? undefined : 'lower-case host names, comma-separated';
    }
    case 'ipv4':
      return isIPv4(value) ? undefined : 'an IPv4 address such as 203.0.113.7';
    case 'ipv6':
      return isIPv6(value) && !value.includes('%') ? undefined : 'an IPv6 address';
    case 'email': {
      const at = value.lastIndexOf('@');
      const ok = at > 0 && EMAIL_LOCAL.test(value.slice(0, at)) && HOST.test(value.slice(at + 1));
      return ok ? undefined : 'an e-mail address such as hostmaster@provider.com';
    }
  }
}

export class OptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

export const USAGE = [
  'usage: deploy/install.sh --provider NAME --panel-host HOST --mail-host HOST --nameservers NS1,NS2',
  '         --ipv4 ADDRESS [--ipv6 ADDRESS] [--spf-include HOST] [--dmarc-report EMAIL] --acme-email EMAIL',
  '         [--trial]',
  'A flag left out is asked for when a terminal is attached; --trial allows documentation values',
  '(.test names, 192.0.2.0/24, 2001:db8::/32), which would otherwise reach every customer zone.',
].join('\n');

/** The flags as given: `--name value` or `--name=value`, each known and at most once. */
export function readFlags(args: readonly string[]): { values: Map<string, string>; trial: boolean; help: boolean } {
  const values = new Map<string, string>();
  const problems: string[] = [];
  let trial = false;
  let help = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--trial') trial = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else {
      const equals = arg.indexOf('=');
      const name = equals > 0 ? arg.slice(0, equals) : arg;
      const spec = FLAGS.find((candidate) => candidate.flag === name);
      if (!spec) {
        problems.push(`${name.slice(0, 40)}: not a flag of the installer`);
        continue;
      }
      const value = equals > 0 ? arg.slice(equals + 1) : args[++index];
      if (value === undefined) problems.push(`${name}: needs a value`);
      else if (values.has(name)) problems.push(`${name}: given twice`);
      else values.set(name, value.trim());
    }
  }
  if (problems.length > 0) throw new OptionsError(problems);
  return { values, trial, help };
}

/** Asks for one missing value: given only when a terminal is attached. */
export type Ask = (question: string) => Promise<string>;

/**
 * The options from the flags, asking for what is missing when `ask` is given. Every value is
 * checked; a documentation value is refused unless this is a trial, since the panel would put it
 * in every customer's zone.
 */
export async function resolveOptions(args: readonly string[], ask?: Ask): Promise<InstallOptions> {
  const { values, trial } = readFlags(args);
  const problems: string[] = [];
  const taken: Record<string, string> = {};
  for (const spec of FLAGS) {
    let value = values.get(spec.flag);
    if (value === undefined && ask) value = (await ask(`${spec.question}: `)).trim();
    if (value === undefined) {
      if (!spec.optional) problems.push(`${spec.flag}: missing`);
      taken[spec.key] = '';
      continue;
    }
    value = spec.kind === 'provider' ? value : value.toLowerCase().replace(/\.$/, '');
    if (value === '' && spec.optional) {
      taken[spec.key] = '';
      continue;
    }
    const reason = invalidReason(spec.kind, value);
    if (reason) {
      problems.push(`${spec.flag}: ${reason}`);
      continue;
    }
    const documentation = spec.kind !== 'provider' && value.split(',').some(isDocumentationValue);
    if (documentation && !trial) {
      problems.push(
        `${spec.flag}: ${value} is reserved for documentation and would reach customers' zones (--trial allows it)`,
      );
      continue;
    }
    taken[spec.key] = value;
  }
  if (problems.length > 0) throw new OptionsError(problems);
  return {
    provider: taken.provider as string,
    panelHost: taken.panelHost as string,
    mailHost: taken.mailHost as string,
    nameservers: (taken.nameservers as string).split(','),
    ipv4: taken.ipv4 as string,
    ipv6: taken.ipv6 as string,
    spfInclude: taken.spfInclude as string,
    dmarcReport: taken.dmarcReport as string,
    acmeEmail: taken.acmeEmail as string,
    trial,
  };
}
