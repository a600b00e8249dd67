/**
 * The service users driver: the system user and group each hosting service's PHP, FTP and files
 * run as. The panel database holds who each service's user is (`service_users`: a name made from
 * the service id, a uid from the operator's range, a group of the same name and number); the
 * driver makes the system's accounts match, and never picks a name or a number itself.
 */

/** One service's account as the system must have it. */
export interface SystemUser {
  /** `p247s<service id>`: at most 32 characters, valid for useradd. */
  name: string;
  uid: number;
  /** The number of the group of the same name, the user's primary group. */
  gid: number;
  /** The service home (`<PANEL_HOSTING_ROOT>/<domain>`): the account's home in passwd, never created by useradd. */
  home: string;
}

/** An account of the system that looks like a service user (by its name). */
export interface FoundUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * What the system has of a user: `present` (user and group as wanted), `missing` (one or both
 * still to make), or `clash` (its name or number belongs to another account: never repaired, the
 * operator decides).
 */
export type UserState = { state: 'present' } | { state: 'missing' } | { state: 'clash'; detail: string };

export interface ServiceUserDriver {
  /** `embedded` creates nothing: every service's work runs as the panel and the web server, as before. */
  readonly kind: 'embedded' | 'system';
  /** How the system's accounts stand against `user`; nothing is changed. */
  check(user: SystemUser): Promise<UserState>;
  /**
   * Makes the group and the user exist exactly so (idempotent: an account already there with the
   * same name and number is fine). A name or number taken by another account is a DaemonError and
   * nothing is changed.
   */
  ensure(user: SystemUser): Promise<'created' | 'present'>;
  /** Removes the user and its group, when they are this user's (same name and number); nothing when already gone. */
  remove(user: Pick<SystemUser, 'name' | 'uid' | 'gid'>): Promise<void>;
  /** Every account of the system whose name is a service user's (`p247s<digits>`). */
  list(): Promise<FoundUser[]>;
}

/** A service user's name: made from the service id alone, so it never changes. */
export function serviceUserName(serviceId: number): string {
  if (!Number.isSafeInteger(serviceId) || serviceId < 1) throw new Error(`bad service id: ${serviceId}`);
  return `p247s${serviceId}`;
}

/** What serviceUserName makes, and nothing else: the only accounts this driver ever removes. */
export const SERVICE_USER_NAME = /^p247s[1-9][0-9]{0,25}$/;
