import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isRedirectionUrl, isServiceFolder, isSubdomainName } from '@panel247/contract/hosting-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import { FieldErrors } from '../../errors.ts';
import { listenAddresses, repeatListenLines } from './listen-lines.ts';
import { poolSocketName } from './php-socket-folder.ts';
import {
  DEFAULT_PHP_WORKERS,
  type WebRedirection,
  type WebService,
  type WebServiceHosts,
  type WebSite,
} from './web.driver.ts';

/**
 * Turns a service into the files nginx and PHP-FPM read, from the templates in deploy/nginx.
 * Every value that reaches a config file is allow-listed first: a value outside the list is
 * refused (FieldErrors, `web.error.value`), never escaped. Only the HTML pages (frame, parking)
 * escape, since they are HTML and not configuration.
 */

export interface WebRenderSettings {
  /** Per-service logs go to <logDir>/<serviceId>/. */
  logDir: string;
  httpListen: string;
  httpsListen: string;
  /** PHP version → the folder its pools' sockets live in. */
  phpSockets: Record<string, string>;
  phpUser: string;
  phpGroup: string;
  nginxUser: string;
  /** Served by every HTTP server block at /.well-known/acme-challenge/ (HTTP-01 tokens). */
  acmeChallengeDir: string;
}

export interface RenderedFile {
  /** Relative to the service's folder. */
  name: string;
  content: string;
  mode: number;
  /**
   * Read by nginx or PHP-FPM as configuration (nginx.conf, sites/*.conf, the pool): tested before
   * it replaces the live file. The others (certificates, keys, pages, FastCGI parameters) are
   * named by their content or never change, so they can be written before the test.
   */
  config: boolean;
}

export interface RenderedService {
  files: RenderedFile[];
  phpVersion: string;
  socket: string;
  errorLog: string;
  phpErrorLog: string;
  /** The pool's own temporary folder (sessions, uploads), inside its open_basedir. */
  phpTempDir: string;
  /** The service's own pool user (WebService.pool): owner of the PHP error log and the temporary folder. */
  poolOwner?: { uid: number; gid: number };
  /** The hosts' files as rendered, for the service's next render. */
  memo: RenderMemo;
}

/** A host's files and the key of what they were rendered from (see renderService). */
interface RenderedHost {
  key: string;
  files: RenderedFile[];
}

/** A service's hosts' files by host (its subdomain, '' for the main domain), and their context. */
export interface RenderMemo {
  context: string;
  hosts: Map<string, RenderedHost>;
}

/**
 * The hosts a change of `subdomains` renders again: the main site's names depend on whether www
 * has a site or a redirection of its own, so either one brings in the other.
 */
export function hostsToRender(subdomains: readonly string[]): string[] {
  const hosts = new Set(subdomains);
  if (hosts.has('') || hosts.has('www')) {
    hosts.add('');
    hosts.add('www');
  }
  return [...hosts];
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+${LABEL}$`);
/** An absolute path: letters, digits and . _ - between slashes; no "." or ".." segments. */
const ABSOLUTE_PATH = /^(\/(?!\.{1,2}(\/|$))[A-Za-z0-9._-]+)+\/?$/;
const URL_PATH = /^\/(?:[A-Za-z0-9._~-]+\/)*(?:[A-Za-z0-9._~-]+)?$/;
/** A URL: scheme, host, optional port, and path/query/fragment characters without quotes, $, ; or braces. */
const LISTEN = /^(?:(?:\d{1,3}\.){3}\d{1,3}:|\[[0-9a-f:]+\]:)?\d{1,5}$/i;
const NAME = /^[a-z_][a-z0-9_-]{0,31}$/;
const VERSION = /^\d+\.\d+$/;
const PEM = /^(?:-----BEGIN [A-Z ]{1,40}-----\r?\n[A-Za-z0-9+/=\r\n]+-----END [A-Z ]{1,40}-----\s*)+$/;

function refuse(field: string, key = 'web.error.value'): never {
  throw FieldErrors.one(field, key);
}

function check(value: unknown, pattern: RegExp, field: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) refuse(field);
  return value;
}

/** Settings come from the operator, and still go through the same lists before use. */
export function checkSettings(settings: WebRenderSettings): void {
  check(settings.logDir, ABSOLUTE_PATH, 'web.logDir');
  for (const address of listenAddresses(settings.httpListen)) check(address, LISTEN, 'web.httpListen');
  for (const address of listenAddresses(settings.httpsListen)) check(address, LISTEN, 'web.httpsListen');
  for (const [version, dir] of Object.entries(settings.phpSockets)) {
    check(version, VERSION, 'web.phpSockets');
    check(dir, ABSOLUTE_PATH, 'web.phpSockets');
  }
  check(settings.phpUser, NAME, 'web.phpUser');
  check(settings.phpGroup, NAME, 'web.phpGroup');
  check(settings.nginxUser, NAME, 'web.nginxUser');
  check(settings.acmeChallengeDir, ABSOLUTE_PATH, 'web.acmeChallengeDir');
}

function checkSubdomain(label: string, field: string): string {
  if (!isSubdomainName(label)) refuse(field);
  return label;
}

function checkFolder(folder: unknown, field: string): string {
  if (typeof folder !== 'string') refuse(field);
  if (folder === '') return '';
  if (!isServiceFolder(folder)) refuse(field);
  return folder;
}

function checkUrl(url: unknown, field: string): string {
  if (typeof url !== 'string' || !isRedirectionUrl(url)) refuse(field);
  return url;
}

function checkText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > 500 || hasControlCharacters(value)) refuse(field);
  return value;
}

function checkPem(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > 64 * 1024 || !PEM.test(value)) refuse(field);
  return value;
}

/** Checks every value of the service; returns it unchanged or throws before anything is written. */
export function checkService(service: WebService, settings: WebRenderSettings): void {
  if (!Number.isSafeInteger(service.serviceId) || service.serviceId < 1) refuse('serviceId');
  check(service.domain, DOMAIN, 'domain');
  check(service.home, ABSOLUTE_PATH, 'home');
  check(service.phpVersion, VERSION, 'phpVersion');
  if (!settings.phpSockets[service.phpVersion]) refuse('phpVersion', 'web.error.php_version');
  if (typeof service.parking !== 'boolean') refuse('parking');
  if (service.suspended !== undefined && typeof service.suspended !== 'boolean') refuse('suspended');
  if (service.pool) {
    check(service.pool.user, NAME, 'pool.user');
    check(service.pool.group, NAME, 'pool.group');
    for (const id of [service.pool.uid, service.pool.gid]) if (!Number.isSafeInteger(id) || id < 1) refuse('pool');
  }
  const hosts = new Set<string>();
  service.sites.forEach((site, index) => {
    if (site.subdomain !== '') checkSubdomain(site.subdomain, `sites.${index}.subdomain`);
    checkFolder(site.folder, `sites.${index}.folder`);
    if (hosts.has(site.subdomain)) refuse(`sites.${index}.subdomain`);
    hosts.add(site.subdomain);
    if (site.ssl) {
      checkPem(site.ssl.certPem, `sites.${index}.ssl.certPem`);
      checkPem(site.ssl.keyPem, `sites.${index}.ssl.keyPem`);
      if (site.ssl.chainPem) checkPem(site.ssl.chainPem, `sites.${index}.ssl.chainPem`);
    }
  });
  const locations = new Set<string>();
  service.redirections.forEach((redirection, index) => {
    const field = `redirections.${index}`;
    if (redirection.subdomain !== '') checkSubdomain(redirection.subdomain, `${field}.subdomain`);
    check(redirection.path, URL_PATH, `${field}.path`);
    const key = `${redirection.subdomain}|${trimPath(redirection.path)}`;
    if (locations.has(key)) refuse(`${field}.path`);
    locations.add(key);
    checkUrl(redirection.url, `${field}.url`);
    if (redirection.type !== 301 && redirection.type !== 302 && redirection.type !== 'frame') refuse(`${field}.type`);
    if (redirection.type === 'frame') {
      checkText(redirection.frame?.title ?? '', `${field}.frame.title`);
      checkText(redirection.frame?.description ?? '', `${field}.frame.description`);
      checkText(redirection.frame?.keywords ?? '', `${field}.frame.keywords`);
    }
  });
}

function trimPath(urlPath: string): string {
  return urlPath === '/' ? '/' : urlPath.replace(/\/$/, '');
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * The files of deploy/nginx, each read once per driver: a render remembered for a host (see
 * renderHosts) names them, so they must not change under it while the process runs.
 */
export class Templates {
  /** Each template's body as filled: read once, its comment lines already taken out. */
  private readonly bodies = new Map<string, string>();
  private readonly files = new Map<string, string>();
  constructor(readonly dir: string) {}

  /** A file used as it is (the FastCGI parameters). */
  file(name: string): string {
    let text = this.files.get(name);
    if (text === undefined) {
      text = readFileSync(path.join(this.dir, name), 'utf8');
      this.files.set(name, text);
    }
    return text;
  }

  private body(name: string): string {
    let body = this.bodies.get(name);
    if (body === undefined) {
      const text = readFileSync(path.join(this.dir, name), 'utf8');
      // Comment lines of the templates document placeholders; they stay out of the rendered file.
      body = name.endsWith('.html.template')
        ? text
        : text
            .split('\n')
            .filter((line) => !/^\s*[#;]/.test(line))
            .join('\n');
      this.bodies.set(name, body);
    }
    return body;
  }

  fill(name: string, values: Record<string, string>): string {
    return this.body(name).replace(/@([A-Z_]+)@/g, (whole, key: string) => {
      const value = values[key];
      if (value === undefined) throw new Error(`${name}: ${whole} not filled`);
      return value;
    });
  }
}

function host(subdomain: string, domain: string): string {
  return subdomain === '' ? domain : `${subdomain}.${domain}`;
}

/** Whether a site or a redirection has the www host, which the main site then leaves to it. */
export function wwwTaken(service: { sites: { subdomain: string }[]; redirections: { subdomain: string }[] }): boolean {
  return (
    service.sites.some((site) => site.subdomain === 'www') ||
    service.redirections.some((redirection) => redirection.subdomain === 'www')
  );
}

/**
 * The names a site answers at (its server_name list): its host, and for the main site also
 * www.<domain> unless www has its own. The site statistics tell a request's site by them.
 */
export function siteHostNames(subdomain: string, domain: string, www: boolean): string[] {
  const names = [host(subdomain, domain)];
  if (subdomain === '' && !www) names.push(`www.${domain}`);
  return names;
}

function siteNames(site: WebSite, domain: string, www: boolean): string {
  return siteHostNames(site.subdomain, domain, www).join(' ');
}

/**
 * Where a service's nginx and PHP-FPM write its errors and nginx its requests (the statistics
 * read them), and the pool's temporary folder: PHP's default session and upload folders lie
 * outside the service's open_basedir, so each pool gets one of its own there.
 */
export function serviceLogFiles(
  logDir: string,
  serviceId: number,
): { folder: string; nginx: string; access: string; php: string; tmp: string } {
  const folder = path.join(logDir, String(serviceId));
  return {
    folder,
    nginx: path.join(folder, 'error.log'),
    access: path.join(folder, 'access.log'),
    php: path.join(folder, 'php-error.log'),
    tmp: path.join(folder, 'tmp'),
  };
}

/** A short content hash: names of files that are never rewritten in place (certificates, frames). */
function contentTag(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** The line of a service's nginx.conf that brings in its hosts' files. */
export function sitesInclude(dir: string): string {
  return `include ${path.join(dir, 'sites')}/*.conf;`;
}

/**
 * Renders the service's files (nothing written). `dir` is the absolute folder they will live in.
 * Each host (a site, or a host with only redirections) gets a file of its own, `sites/<host>.conf`,
 * which the service's nginx.conf includes, so a change of one site changes one file. Certificates,
 * keys, frame pages and the FastCGI parameters are named by their content: a new one never
 * overwrites a file the live configuration names.
 */
export function renderService(
  service: WebService,
  settings: WebRenderSettings,
  templates: Templates,
  dir: string,
  memo?: RenderMemo,
): RenderedService {
  return render(service, settings, templates, dir, memo) as RenderedService;
}

/**
 * Renders a change of some hosts of a service from the previous render: `change` holds the sites
 * and redirections of `change.hosts` only (see hostsToRender), and every other host keeps the
 * files it has in `memo`, so a change in a service of a thousand sites reads and renders its own
 * hosts. null when the memo cannot stand in for the rest: none, another context (the PHP version,
 * the settings), or a parked service (whose parking block names every host).
 */
export function renderHosts(
  change: WebServiceHosts,
  settings: WebRenderSettings,
  templates: Templates,
  dir: string,
  memo: RenderMemo | undefined,
): RenderedService | null {
  if (!memo || change.parking || change.suspended) return null;
  const hosts = new Set(change.hosts);
  if (hosts.has('') !== hosts.has('www')) throw new Error('the main host and www are rendered together');
  for (const item of [...change.sites, ...change.redirections]) {
    if (!hosts.has(item.subdomain)) throw new Error(`host ${item.subdomain} is not in the change`);
  }
  return render(change, settings, templates, dir, memo, hosts);
}

/** renderService, or renderHosts when `touched` names the hosts the service's sites and redirections are of. */
function render(
  service: WebService,
  settings: WebRenderSettings,
  templates: Templates,
  dir: string,
  memo: RenderMemo | undefined,
  touched?: ReadonlySet<string>,
): RenderedService | null {
  checkSettings(settings);
  checkService(service, settings);
  check(dir, ABSOLUTE_PATH, 'web.configDir');
  const id = String(service.serviceId);
  const {
    access: accessLog,
    nginx: errorLog,
    php: phpErrorLog,
    tmp: phpTempDir,
  } = serviceLogFiles(settings.logDir, service.serviceId);
  const socketDir = settings.phpSockets[service.phpVersion] as string;
  const socket = path.join(socketDir, poolSocketName(id));
  const home = service.home.replace(/\/$/, '');
  const files: RenderedFile[] = [];
  const inertNames = new Set<string>();
  /** Adds a file to the service's; a file named by its content comes once, whichever hosts use it. */
  const add = (file: RenderedFile) => {
    if (!file.config && inertNames.has(file.name)) return;
    if (!file.config) inertNames.add(file.name);
    files.push(file);
  };
  // Where the files being rendered go: the service's, or the list of the host being rendered.
  let sink: (file: RenderedFile) => void = add;
  const header = (what: string, comment = '#') =>
    `${comment} Panel247 service ${id} (${service.domain})${what}: written by the panel, do not edit.\n`;
  const hostFile = (hostName: string, blocks: string[]) =>
    sink({
      name: `sites/${hostName}.conf`,
      content: `${header(`, ${hostName}`)}${blocks.join('\n')}`,
      mode: 0o644,
      config: true,
    });
  const inert = (name: string, content: string, mode = 0o644) => {
    sink({ name, content, mode, config: false });
    return path.join(dir, name);
  };
  // A host's files depend on the service's settings (this context) and on the host's own values
  // (its key): one rendered for the same context and key by the previous render is taken as is,
  // so a change in a service of a thousand sites renders the hosts it touches.
  const context = JSON.stringify([
    dir,
    service.domain,
    home,
    socket,
    errorLog,
    service.parking,
    service.suspended === true,
    settings,
  ]);
  const reusable = memo?.context === context ? memo.hosts : undefined;
  if (touched && !reusable) return null;
  // A change of some hosts starts from every other host as the memo has it.
  const hosts = new Map<string, RenderedHost>();
  if (touched && reusable) for (const [name, own] of reusable) if (!touched.has(name)) hosts.set(name, own);
  const renderHost = (subdomain: string, key: string, make: () => void) => {
    let own = reusable?.get(subdomain);
    if (own?.key !== key) {
      const list: RenderedFile[] = [];
      sink = (file) => list.push(file);
      try {
        make();
      } finally {
        sink = add;
      }
      own = { key, files: list };
    }
    hosts.set(subdomain, own);
  };
  // Worked out once per service, not per site: a service may hold a thousand sites.
  const www = wwwTaken(service);
  const redirectionsOf = new Map<string, WebRedirection[]>();
  for (const redirection of service.redirections) {
    const own = redirectionsOf.get(redirection.subdomain);
    if (own) own.push(redirection);
    else redirectionsOf.set(redirection.subdomain, [redirection]);
  }
  const common = {
    ERROR_LOG: errorLog,
    ACCESS_LOG: accessLog,
  };

  const redirectionLines = (redirections: WebRedirection[]): string =>
    redirections
      .map((redirection) => {
        let body: string;
        if (redirection.type === 'frame') {
          const page = templates.fill('frame.html.template', {
            TITLE: escapeHtml(redirection.frame?.title ?? ''),
            DESCRIPTION: escapeHtml(redirection.frame?.description ?? ''),
            KEYWORDS: escapeHtml(redirection.frame?.keywords ?? ''),
            URL: escapeHtml(redirection.url),
          });
          const name = `frame-${contentTag(page)}.html`;
          inert(`frames/${name}`, page);
          body = `root ${path.join(dir, 'frames')}; default_type text/html; try_files /${name} =404;`;
        } else {
          body = `return ${redirection.type} "${redirection.url}";`;
        }
        const at = trimPath(redirection.path);
        if (at === '/') return `    location ^~ / { ${body} }`;
        return `    location = ${at} { ${body} }\n    location ^~ ${at}/ { ${body} }`;
      })
      .join('\n');

  const httpListen = listenAddresses(settings.httpListen);
  const httpsListen = listenAddresses(settings.httpsListen);
  const httpBlock = (names: string, locations: string) =>
    repeatListenLines(
      templates.fill('server.conf.template', {
        ...common,
        LISTEN: httpListen[0] as string,
        SERVER_NAMES: names,
        ACME_CHALLENGES: settings.acmeChallengeDir,
        LOCATIONS: locations,
      }),
      httpListen,
    );
  const httpsBlock = (names: string, locations: string, ssl: { cert: string; key: string }) =>
    repeatListenLines(
      templates.fill('server-ssl.conf.template', {
        ...common,
        LISTEN: httpsListen[0] as string,
        SERVER_NAMES: names,
        CERTIFICATE: ssl.cert,
        CERTIFICATE_KEY: ssl.key,
        LOCATIONS: locations,
      }),
      httpsListen,
    );

  const sslFiles = (site: WebSite) => {
    if (!site.ssl) return undefined;
    const chain = site.ssl.chainPem ? `${site.ssl.chainPem.trim()}\n` : '';
    const certificate = `${site.ssl.certPem.trim()}\n${chain}`;
    const key = `${site.ssl.keyPem.trim()}\n`;
    const name = `ssl/${host(site.subdomain, service.domain)}-${contentTag(certificate, key)}`;
    // Private keys are created 0600 from the start, never readable for a moment.
    return { cert: inert(`${name}.crt`, certificate), key: inert(`${name}.key`, key, 0o600) };
  };

  let parkingBlock = '';
  // A suspended service is shown like a parked one, with its own page and status.
  const standIn = service.suspended === true ? 'suspended' : service.parking ? 'parking' : null;
  if (standIn) {
    const parkingLocations =
      standIn === 'suspended'
        ? templates.fill('suspended.locations.template', { SUSPENDED_DIR: path.join(dir, 'suspended') })
        : templates.fill('parking.locations.template', { PARKING_DIR: path.join(dir, 'parking') });
    const names = new Set<string>([service.domain, `www.${service.domain}`]);
    for (const site of service.sites) names.add(host(site.subdomain, service.domain));
    for (const redirection of service.redirections) names.add(host(redirection.subdomain, service.domain));
    parkingBlock = `${httpBlock([...names].join(' '), parkingLocations)}\n`;
    // Hosts with a certificate keep answering over HTTPS, with the parking page.
    for (const site of service.sites) {
      renderHost(site.subdomain, siteKey(site, redirectionsOf, www), () => {
        const ssl = sslFiles(site);
        if (ssl) {
          hostFile(host(site.subdomain, service.domain), [
            httpsBlock(siteNames(site, service.domain, www), parkingLocations, ssl),
          ]);
        }
      });
    }
    const page = { DOMAIN: escapeHtml(service.domain) };
    if (standIn === 'suspended') inert('suspended/suspended.html', templates.fill('suspended.html.template', page));
    else inert('parking/index.html', templates.fill('parking.html.template', page));
  } else {
    const fastcgi = templates.file('fastcgi-params.conf');
    const fastcgiParams = inert(`fastcgi-params-${contentTag(fastcgi)}.conf`, fastcgi);
    for (const site of service.sites) {
      renderHost(site.subdomain, `${siteKey(site, redirectionsOf, www)}${fastcgiParams}`, () => {
        const locations = templates.fill('site.locations.template', {
          ROOT: site.folder === '' ? home : path.join(home, site.folder),
          REDIRECTIONS: redirectionLines(redirectionsOf.get(site.subdomain) ?? []),
          FASTCGI_PARAMS: fastcgiParams,
          PHP_SOCKET: socket,
        });
        const names = siteNames(site, service.domain, www);
        const ssl = sslFiles(site);
        hostFile(host(site.subdomain, service.domain), [
          httpBlock(names, locations),
          ...(ssl ? [httpsBlock(names, locations, ssl)] : []),
        ]);
      });
    }
    // Redirections of hosts without a site get a server block (and a file) of their own.
    const siteHosts = new Set(service.sites.map((site) => site.subdomain));
    for (const [subdomain, own] of redirectionsOf) {
      if (siteHosts.has(subdomain)) continue;
      // Paths no redirection covers answer 404 (a redirection of / covers them all).
      renderHost(subdomain, JSON.stringify(['redirected', subdomain, own]), () => {
        const rest = own.some((r) => r.path === '/') ? '' : '\n    location / { return 404; }';
        const hostName = host(subdomain, service.domain);
        hostFile(hostName, [httpBlock(hostName, `${redirectionLines(own)}${rest}`)]);
      });
    }
  }

  for (const own of hosts.values()) for (const file of own.files) add(file);
  files.push({
    name: 'nginx.conf',
    content: `${header('')}${parkingBlock}${sitesInclude(dir)}\n`,
    mode: 0o644,
    config: true,
  });
  files.push({
    name: `php-fpm-${service.phpVersion}.conf`,
    content: `${header('', ';')}${templates.fill('php-fpm-pool.conf.template', {
      POOL: `panel247-${id}`,
      USER: service.pool?.user ?? settings.phpUser,
      GROUP: service.pool?.group ?? settings.phpGroup,
      SOCKET: socket,
      LISTEN_OWNER: settings.nginxUser,
      LISTEN_GROUP: settings.nginxUser,
      HOME: home,
      ERROR_LOG: phpErrorLog,
      TMP: phpTempDir,
      WORKERS: String(service.phpWorkers ?? DEFAULT_PHP_WORKERS),
    })}`,
    mode: 0o644,
    config: true,
  });
  return {
    files,
    phpVersion: service.phpVersion,
    socket,
    errorLog,
    phpErrorLog,
    phpTempDir,
    ...(service.pool ? { poolOwner: { uid: service.pool.uid, gid: service.pool.gid } } : {}),
    memo: { context, hosts },
  };
}

/** What makes a site's file: its own values, its redirections, and for the main site whether www is taken. */
function siteKey(site: WebSite, redirectionsOf: Map<string, WebRedirection[]>, www: boolean): string {
  return JSON.stringify([
    'site',
    site.subdomain,
    site.folder,
    site.ssl ?? null,
    redirectionsOf.get(site.subdomain) ?? [],
    site.subdomain === '' && www,
  ]);
}
