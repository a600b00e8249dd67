/**
 * The parts of a resource whose changes a server applies through the work log, as the realtime
 * channel's `work.changed` names them: a hosting service's web side, FTP accounts, mailboxes and
 * databases, a zone.
 * (No zod here: the web app's shell reads it.)
 */
export const WORK_AREAS = ['web', 'ftp', 'mail', 'databases', 'dns'] as const;
export type WorkArea = (typeof WORK_AREAS)[number];

export function isWorkArea(value: unknown): value is WorkArea {
  return (WORK_AREAS as readonly unknown[]).includes(value);
}
