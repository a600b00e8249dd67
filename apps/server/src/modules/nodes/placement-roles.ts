import type { ServiceArea } from '../../jobs/service-change-log.ts';
import type { NodeRole } from './nodes.service.ts';

/**
 * The parts of a hosting service that live on one server each. Name servers are not among them:
 * every zone is on the primary and its secondaries alike.
 * - web: the home, its sites, PHP pools, certificates and FTP logins (FTP serves the home);
 * - mail: the mailboxes (Postfix, Dovecot, the DKIM signer);
 * - databases: the MariaDB databases.
 */
export const PLACED_ROLES = ['web', 'mail', 'databases'] as const satisfies readonly NodeRole[];
export type PlacedRole = (typeof PLACED_ROLES)[number];

/** The server an area's changes are applied on: FTP serves the web home, so it goes with it. */
export const SERVER_ROLE_OF_AREA: Record<ServiceArea, PlacedRole> = {
  web: 'web',
  ftp: 'web',
  mail: 'mail',
  databases: 'databases',
};

/**
 * How long a move may hold a service's changes at most: one older than this was abandoned (the
 * process running it died), so it holds nothing any more and a new move replaces it. A move's
 * wait for its new server is capped well below it (`node move --wait`, 600 s at most).
 */
export const MOVE_STALE_SECONDS = 900;

/** The server without a name: the control plane's own machine (no PANEL_NODE). */
export const UNNAMED_NODE = '';
