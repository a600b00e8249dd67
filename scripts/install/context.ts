import path from 'node:path';
import type { Secrets } from './env-file.ts';
import type { InstallOptions } from './options.ts';
import type { Say } from './system.ts';

/** The checkout the installer runs from: the panel's files (/opt/panel247 on a machine). */
export const CHECKOUT = path.resolve(import.meta.dirname, '../..');
export const DEPLOY = path.join(CHECKOUT, 'deploy');

/** Where the installer keeps what it generated (0600 root), so a re-run changes no password. */
export const SECRETS_FILE = '/etc/panel247/install-secrets.env';
export const PANEL_ENV_FILE = '/etc/panel247/panel247.env';
export const PHP_VERSION = '8.2';
/**
 * FastCGI parameters of the loopback sites the panel's TLS proxy passes to (phpMyAdmin, the
 * WebMail): HTTPS on, for their secure cookies. Not *.conf: nginx.conf includes every *.conf of
 * that folder as a site.
 */
export const PROXIED_FASTCGI_PARAMS = '/etc/nginx/panel247/proxied-fastcgi.params';

export interface InstallContext {
  options: InstallOptions;
  secrets: Secrets;
  say: Say;
  /** Units whose configuration changed in this run: restarted (not only started) at the end. */
  changedUnits: Set<string>;
}

/** One step of the install: checks before it changes, and says what it did. */
export interface Step {
  title: string;
  run(context: InstallContext): Promise<void>;
}

/** rspamd's scanner, on loopback: Debian's own default address for its normal worker. */
export const RSPAMD_SCANNER = '127.0.0.1:11333';
