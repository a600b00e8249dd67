import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import { getFromHost, webAddressFrom } from '../web/host-request.ts';
import { CUSTOMER_CHECK_TIMEOUT_MS, checked, type DaemonCheck, skipped } from './daemon-check.ts';
import { accountOf } from './setup-checks.ts';

/** A PHP site as the web driver wrote it: the host nginx serves it for, its root and its pool's socket. */
export interface PhpSite {
  host: string;
  root: string;
  socket: string;
}

/** The first server block of a site file the web driver rendered (site.locations.template), or null without PHP. */
export function phpSiteOf(conf: string): PhpSite | null {
  const host = /^\s*server_name\s+([^\s;]+)/m.exec(conf)?.[1];
  // the site's own root, not one of a location's (the ACME challenges have theirs)
  const serverLevel = conf.replace(/^\s*location\b[^{]*\{[^{}]*\}/gm, '');
  const root = /^\s*root\s+([^\s;]+);/m.exec(serverLevel)?.[1];
  const socket = /^\s*fastcgi_pass\s+unix:([^\s;]+);/m.exec(conf)?.[1];
  return host && root && socket ? { host, root, socket } : null;
}

/** Every PHP site in <configDir>/live/<service>/sites/*.conf, in the order of the services' ids. */
export async function phpSites(configDir: string): Promise<PhpSite[]> {
  const live = path.join(configDir, 'live');
  const services = await readdir(live).catch(() => [] as string[]);
  services.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  const sites: PhpSite[] = [];
  for (const service of services) {
    const folder = path.join(live, service, 'sites');
    const files = (await readdir(folder).catch(() => [] as string[])).filter((file) => file.endsWith('.conf')).sort();
    for (const file of files) {
      const site = phpSiteOf(await readFile(path.join(folder, file), 'utf8'));
      if (site) sites.push(site);
    }
  }
  return sites;
}

/** Runs a command as the owner of the site's files (the panel runs as root; the site is its service user's). */
function runAs(owner: { uid: number; gid: number }, command: string, args: string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      uid: owner.uid,
      gid: owner.gid,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
      timeout: 10_000,
    });
    let errors = '';
    child.stderr?.on('data', (chunk) => (errors += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command}: ${errors.trim() || `exit ${code}`}`)),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * Writes and removes the probe file as the owner of the service's home: written as root, a file
 * the customer links elsewhere could land anywhere; as the owner, only where the owner may write.
 * A panel that is not root cannot switch, and keeps its own rights.
 */
function probeFiles(owner: { uid: number; gid: number }) {
  const asOwner = process.getuid?.() === 0;
  return {
    write: (file: string, content: string) =>
      asOwner ? runAs(owner, 'tee', ['--', file], content) : writeFile(file, content, { flag: 'wx', mode: 0o644 }),
    remove: (file: string) => (asOwner ? runAs(owner, 'rm', ['-f', '--', file]) : rm(file, { force: true })),
  };
}

/**
 * Whose rights the probe page is written and removed with: the user who owns the service's home,
 * the folder of PANEL_HOSTING_ROOT the site's root is in, with that user's own group. The hosting
 * root is the panel's alone, so lstat names its entry truly; the site's root, further down, is the
 * customer's, and a link planted there would name another folder's owner (root's, or another
 * customer's). The page is never written with root's rights.
 */
async function probeOwner(config: AppConfig, root: string): Promise<{ uid: number; gid: number }> {
  const hosting = config.hosting.root;
  const inside = hosting ? path.relative(hosting, root) : '';
  if (!hosting || inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
    throw new Error(
      `the root of the site, ${root}, is not inside a home of PANEL_HOSTING_ROOT (${hosting ?? 'unset'})`,
    );
  }
  const home = path.join(hosting, inside.split(path.sep)[0] as string);
  const info = await lstat(home).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`the home ${home} is missing: npm run panel -- web sync`);
  if (process.getuid?.() !== 0) return { uid: info.uid, gid: info.gid };
  if (info.uid === 0)
    throw new Error(`the home ${home} belongs to root: npm run panel -- users sync gives it its owner`);
  return accountOf(String(info.uid), `the owner of ${home}`);
}

/** Why nginx answered 502/504: the socket is missing (no master or pool), or nginx's user cannot open it. */
async function badGateway(site: PhpSite, status: number): Promise<string> {
  const folder = path.dirname(site.socket);
  const socket = await stat(site.socket).catch(() => null);
  if (!socket) {
    return `nginx answers ${status} for ${site.host}: the pool socket ${site.socket} does not exist (PHP-FPM or the pool is not running)`;
  }
  const folderStat = await stat(folder).catch(() => null);
  const mode = folderStat
    ? ` (mode ${(folderStat.mode & 0o7777).toString(8).padStart(4, '0')}, uid ${folderStat.uid}, gid ${folderStat.gid})`
    : '';
  return `nginx answers ${status} for ${site.host}: it cannot use the pool socket ${site.socket}; its folder ${folder}${mode} or the socket keeps nginx's user out, or the pool does not answer`;
}

/** One PHP page through nginx for this site: a probe file in its root, asked for with its Host, removed after. */
async function phpPage(config: AppConfig, site: PhpSite, version: string): Promise<DaemonCheck> {
  const address = config.doctor.webAddress ?? webAddressFrom(config.web.httpListen);
  const folder = path.dirname(site.socket);
  const name = `panel247-doctor-${randomBytes(8).toString('hex')}.php`;
  const file = path.join(site.root, name);
  const marker = name.replace(/\.php$/, '');
  let files: ReturnType<typeof probeFiles> | undefined;
  let writing: Promise<unknown> | undefined;
  const result = await checked(
    `php page ${version}`,
    `PHP-FPM ${version} must run (systemctl start php${version}-fpm; npm run panel -- web sync rewrites the pools) and nginx's user (${config.web.nginxUser}) must reach ${folder}: the folder must be searchable by it (0755, made at boot by the panel's tmpfiles.d entry) and each socket is the web server's. Then ask again: npm run panel -- doctor.`,
    async (signal) => {
      files = probeFiles(await probeOwner(config, site.root));
      // the page's output differs from its source: PHP ran it, nginx did not hand out the file
      writing = files.write(file, `<?php echo 'panel247-doctor-', '${marker.slice('panel247-doctor-'.length)}';\n`);
      await writing;
      const { status, body } = await getFromHost(address, site.host, `/${name}`, signal);
      if (status === 502 || status === 504) throw new Error(await badGateway(site, status));
      if (status !== 200) throw new Error(`nginx on ${address} answers HTTP ${status} for http://${site.host}/${name}`);
      if (!body.includes(marker)) throw new Error(`http://${site.host}/${name} came back without PHP having run it`);
      return `http://${site.host}/ through ${address}: PHP ${version} ran the probe page (pool socket ${site.socket})`;
    },
    CUSTOMER_CHECK_TIMEOUT_MS,
  );
  // removed outside the check's time limit, once written: a slow probe leaves nothing behind either
  await writing?.catch(() => undefined);
  await files?.remove(file).catch(() => undefined);
  return result;
}

/** A PHP page through nginx per PHP version that a site uses; skipped with the web driver embedded or no site yet. */
export async function phpPageChecks(config: AppConfig): Promise<Promise<DaemonCheck>[]> {
  const versions = Object.entries(config.web.phpSockets);
  if (config.web.driver !== 'nginx') {
    return versions.map(([version]) =>
      skipped(`php page ${version}`, 'the embedded web driver has no web server to ask'),
    );
  }
  const sites = await phpSites(String(config.web.configDir));
  return versions.map(([version, folder]) => {
    const site = sites.find((candidate) => path.dirname(candidate.socket) === path.resolve(folder));
    if (!site) return skipped(`php page ${version}`, `no site uses PHP ${version} yet`);
    return phpPage(config, site, version);
  });
}
