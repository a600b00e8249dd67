import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AppConfig } from '../../config.ts';
import { placeholderSettings } from '../../dns-placeholders.ts';
import { phpSocketFolderProblem } from '../web/php-socket-folder.ts';
import { checked, type DaemonCheck, skipped } from './daemon-check.ts';

const run = promisify(execFile);

/** A user's uid and primary gid, from the system's accounts (getent: files, LDAP…), by name or number. */
export async function accountOf(name: string, setting = 'PANEL_WEB_NGINX_USER'): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('getent', ['passwd', name], { timeout: 4000 }).catch(() => {
    throw new Error(`no system user ${name} (${setting})`);
  });
  const [, , uid, gid] = stdout.trim().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Whether nginx's user reaches each PHP version's pool sockets: with no site yet (a fresh
 * install, a reboot that emptied /run) the PHP page probe has nothing to ask, this still does.
 */
function phpSocketChecks(config: AppConfig): Promise<DaemonCheck>[] {
  return Object.entries(config.web.phpSockets).map(([version, folder]) =>
    config.web.driver !== 'nginx'
      ? skipped(`php sockets ${version}`, 'the embedded web driver has no web server to ask')
      : checked(
          `php sockets ${version}`,
          `nginx's user (${config.web.nginxUser}) must reach the pool sockets in ${folder}: the folder 0755 (deploy/tmpfiles.d makes it at boot; systemd-tmpfiles --create makes it now), each socket the web server's (npm run panel -- web sync rewrites the pools), PHP-FPM ${version} started after the folder exists.`,
          async () => {
            const problem = await phpSocketFolderProblem(folder, await accountOf(config.web.nginxUser));
            if (problem) throw new Error(problem);
            return `${config.web.nginxUser} reaches ${folder} and every pool socket in it`;
          },
        ),
  );
}

/** A documentation value (192.0.2.10, ns1.panel247.test…) in a setting a customer's zone would get. */
function dnsPlaceholders(config: AppConfig): Promise<DaemonCheck> {
  const found = placeholderSettings(config);
  if (found.length > 0 && config.dns.allowPlaceholders) {
    return skipped(
      'dns settings',
      `PANEL_DNS_ALLOW_PLACEHOLDERS=true (a trial): ${found.length} documentation values allowed`,
    );
  }
  if (found.length > 0 && config.dns.driver !== 'powerdns') {
    return skipped('dns settings', 'the database DNS driver serves no zone: documentation values reach nobody');
  }
  return checked(
    'dns settings',
    "Set the provider's own values for the settings listed (an empty PANEL_DNS_WEB_IPV6, PANEL_DNS_SPF_INCLUDE or PANEL_DNS_DMARC_REPORT leaves that record out), then correct the zones made before with: npm run panel -- dns placeholders --fix",
    async () => {
      if (found.length > 0) {
        const listed = found.map((setting) => `${setting.variable} ${setting.value}`).join(', ');
        throw new Error(`documentation values would reach customers' zones: ${listed}`);
      }
      return "no documentation value reaches a customer's zone";
    },
  );
}

/** Checks of the setup every customer depends on: the PHP sockets' reach, the DNS settings. */
export function setupChecks(config: AppConfig): Promise<DaemonCheck>[] {
  return [...phpSocketChecks(config), dnsPlaceholders(config)];
}
