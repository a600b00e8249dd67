/**
 * nginx's listen addresses as the settings give them (PANEL_WEB_HTTP_LISTEN, PANEL_WEB_HTTPS_LISTEN):
 * one, or several separated by spaces, as a machine with IPv6 needs (`80 [::]:80`: nginx's `80`
 * is IPv4 only). The templates name one address (`listen @LISTEN@ ssl;`); the file is filled with
 * the first and each of its lines that listen there is repeated for the others, with the same
 * parameters (ssl, default_server).
 */
export function listenAddresses(setting: string): string[] {
  return setting.trim().split(/\s+/).filter(Boolean);
}

/** `text` (filled with `addresses[0]`) with each `listen <first> …;` line repeated for the other addresses. */
export function repeatListenLines(text: string, addresses: readonly string[]): string {
  const [first, ...others] = addresses;
  if (first === undefined || others.length === 0) return text;
  const escaped = first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`^(\\s*listen )${escaped}((?: [a-z_=]+)*;)$`, 'gm');
  return text.replace(line, (whole, indent: string, rest: string) =>
    [whole, ...others.map((address) => `${indent}${address}${rest}`)].join('\n'),
  );
}
