import { randomBytes } from 'node:crypto';

/**
 * systemd's EnvironmentFile format, as the installer writes it: `NAME=value` lines, `#` comments.
 * Values are allow-listed before they get here (options.ts) or generated (hex), so none needs
 * quoting; a value that would is refused rather than quoted wrongly.
 */
const NAME = /^[A-Z][A-Z0-9_]*$/;
const SAFE_VALUE = /^[A-Za-z0-9@%+=:,./_ [\]-]*$/;

/** The `NAME=value` lines of a file (comments and blank lines skipped, surrounding quotes taken off). */
export function parseEnvFile(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const equals = line.indexOf('=');
    if (equals < 1) continue;
    const name = line.slice(0, equals).trim();
    let value = line.slice(equals + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) {
      value = value.slice(1, -1);
    }
    if (NAME.test(name)) values.set(name, value);
  }
  return values;
}

/** The file's text: a header, then one line per setting in the order given. */
export function renderEnvFile(header: string, values: ReadonlyArray<readonly [string, string]>): string {
  const lines = values.map(([name, value]) => {
    if (!NAME.test(name)) throw new Error(`${name}: not a variable name`);
    if (!SAFE_VALUE.test(value)) throw new Error(`${name}: a value with characters the file cannot hold`);
    // a space would end the value in a shell's `. file`; systemd reads it whole when quoted
    return value.includes(' ') ? `${name}="${value}"` : `${name}=${value}`;
  });
  return `${header
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n')}\n${lines.join('\n')}\n`;
}

/** The secrets the installer makes: generated once, then kept on every re-run (upgrades). */
export const SECRET_NAMES = [
  'PANEL_DB_PASSWORD',
  'MAIL_ROLE_PASSWORD',
  'FTP_ROLE_PASSWORD',
  'PDNS_DB_PASSWORD',
  'ROUNDCUBE_DB_PASSWORD',
  'POWERDNS_API_KEY',
  'PHPMYADMIN_KEY',
  'PHPMYADMIN_BLOWFISH_HEX',
  'WEBMAIL_KEY',
  'WEBMAIL_MASTER_PASSWORD',
  'ROUNDCUBE_DES_KEY',
  'MARIADB_ADMIN_PASSWORD',
  'DOCTOR_MAIL_PASSWORD',
  'DOCTOR_FTP_PASSWORD',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type Secrets = Record<SecretName, string>;

/** How long each secret is, in random bytes written as hex (Roundcube's DES key takes 24 characters). */
const SECRET_BYTES: Partial<Record<SecretName, number>> = { ROUNDCUBE_DES_KEY: 12, PHPMYADMIN_BLOWFISH_HEX: 32 };

/** The secrets a file already holds, with the missing (or malformed) ones generated. */
export function keepOrGenerateSecrets(existing: Map<string, string>): { secrets: Secrets; generated: SecretName[] } {
  const secrets = {} as Secrets;
  const generated: SecretName[] = [];
  for (const name of SECRET_NAMES) {
    const bytes = SECRET_BYTES[name] ?? 24;
    const kept = existing.get(name);
    if (kept !== undefined && new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(kept)) secrets[name] = kept;
    else {
      secrets[name] = randomBytes(bytes).toString('hex');
      generated.push(name);
    }
  }
  return { secrets, generated };
}
