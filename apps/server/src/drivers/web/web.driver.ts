import type { ErrorLogLine } from '@panel247/contract/hosting';
/**
 * The web driver: what the panel asks of the web server (nginx) and PHP-FPM for a hosting
 * service — its sites, redirections, parking page, SSL certificates and PHP pool. The panel
 * database stays the source of truth: the driver is given the whole service each time and makes
 * the server match it, all or nothing.
 */

export interface WebSsl {
  certPem: string;
  keyPem: string;
  chainPem?: string;
}

export interface WebSite {
  /** '' is the main domain (also answering as www.<domain> unless a www site exists); else a label. */
  subdomain: string;
  /** Relative to the service home, already normalised by drivers/homes/service-homes.ts ('' = the home). */
  folder: string;
  ssl?: WebSsl;
}

export interface WebFrame {
  title: string;
  description: string;
  keywords: string;
}

export interface WebRedirection {
  subdomain: string;
  /** '/' (the whole host) or a path such as /shop. */
  path: string;
  url: string;
  type: 301 | 302 | 'frame';
  frame?: WebFrame;
}

/** The system user and group a service's PHP pool runs as: its own, with the system users driver. */
export interface WebPool {
  user: string;
  group: string;
  uid: number;
  gid: number;
}

/** A pool's workers when the service names none: what every pool had before plans set it. */
export const DEFAULT_PHP_WORKERS = 5;

export interface WebService {
  serviceId: number;
  /** The domain in punycode. */
  domain: string;
  /** Absolute, already checked by drivers/homes/service-homes.ts. */
  home: string;
  phpVersion: string;
  /** Its pool's `pm.max_children`: the PHP workers of the service's plan (DEFAULT_PHP_WORKERS without one). */
  phpWorkers?: number;
  /**
   * The service's own user for its PHP pool, which then also owns the pool's temporary folder and
   * PHP error log; absent: the driver's default pool user (PANEL_WEB_PHP_USER/GROUP).
   */
  pool?: WebPool;
  /** Every host of the service answers with the parking page. */
  parking: boolean;
  /** The provider suspended it: every host answers 503 with the "suspended" page (before parking). */
  suspended?: boolean;
  sites: WebSite[];
  redirections: WebRedirection[];
}

/**
 * A change that touches some hosts of a service: `hosts` are their subdomains ('' the main domain,
 * always with www: see hostsToRender), and `sites` and `redirections` hold those hosts' only.
 */
export interface WebServiceHosts extends WebService {
  hosts: string[];
}

export interface WebDriver {
  readonly kind: 'embedded' | 'nginx';
  /** Whether changes reach a real web server (false: the driver's files only). */
  readonly live: boolean;
  /**
   * Makes the service's server blocks and pool exactly these. Inputs are checked first (a
   * FieldErrors, nothing written); a refusal by nginx or PHP-FPM is a DaemonError and the
   * previous configuration stays live.
   */
  apply(service: WebService): Promise<void>;
  /**
   * Many services as `apply` each (a server's sync): tested and reloaded together in batches; a
   * batch that fails is applied one by one. Answers the error of each service that failed.
   */
  applyMany(services: WebService[]): Promise<Map<number, unknown>>;
  /**
   * Makes the named hosts of the service exactly these, leaving its other hosts as the driver last
   * applied them: a change costs what it touches. false (nothing done) when the driver cannot
   * stand in for the rest (no apply of this service since it started, another writer, a parked
   * service or other settings); the caller then applies the whole service.
   */
  applyHosts(change: WebServiceHosts): Promise<boolean>;
  /** Removes the service's server blocks and pool (nothing to do when it has none). */
  remove(serviceId: number): Promise<void>;
  /** The ids of the services that have a live configuration. */
  liveServices(): Promise<number[]>;
  /**
   * How the live configuration differs from what `apply(service)` would write: `missing` (none),
   * `changed` (other files or contents), or null (the same). Nothing is written.
   */
  drift(service: WebService): Promise<'missing' | 'changed' | null>;
  /** The last lines of the service's error logs, found from its id alone (never from user input). */
  errorLog(serviceId: number): Promise<ErrorLogLine[]>;
  /** The service's access log (nginx's `panel247_vhost` format), found from its id alone. */
  accessLog(serviceId: number): string;
  /** Has the web server open its logs again, after the panel renamed one (nothing without a server). */
  reopenLogs(): Promise<void>;
}
