import type { ActivityFieldChange } from '@panel247/contract/activity';
import type { PermissionKey } from '@panel247/contract/constants';

/**
 * What a call did, noted while it runs and written to the activity log once it has succeeded.
 * The notes ride on the call's actor (made anew for every request), so the guard and the services
 * can add to them without a request-scoped store in every promise.
 */
export interface ActivityNotes {
  /** The first change the guard allowed: the resource and the permission key that allowed it. */
  change?: { resourceId: number; key: PermissionKey };
  /** What the service could say of it: the thing changed, and its fields before and after. */
  target?: string;
  changes?: ActivityFieldChange[];
  /** The registry's answers to the call's EPP commands: `registry command code clTRID svTRID`. */
  registry?: string[];
}

/** A login, failed login or security change: written whether the call then succeeds or not. */
export interface SecurityEvent {
  event: string;
  domainName: string;
  username: string;
}

/** Called by the guard for every change it allows; the first one names the call's resource. */
export function noteAuthorizedChange(notes: ActivityNotes | undefined, resourceId: number, key: PermissionKey) {
  if (notes && !notes.change) notes.change = { resourceId, key };
}

/** A service says what its change touched, in words the customer knows (never a secret). */
export function noteChangeDetail(
  notes: ActivityNotes | undefined,
  detail: { target?: string; changes?: ActivityFieldChange[] },
) {
  if (!notes) return;
  if (detail.target !== undefined) notes.target = detail.target;
  if (detail.changes) notes.changes = detail.changes;
}

export function noteSecurityEvent(call: { securityEvents: SecurityEvent[] }, event: SecurityEvent) {
  call.securityEvents.push(event);
}

/** The call's security events, taken (each is recorded once). */
export function takeSecurityEvents(call: { securityEvents: SecurityEvent[] }): SecurityEvent[] {
  return call.securityEvents.splice(0);
}
