import type { ApiTokenLevel } from '@panel247/contract/api-tokens';
import type { PendingWork } from '../../jobs/service-change-log.ts';
import type { ActivityNotes } from '../activity/activity-notes.ts';

/** Who is calling: the user behind a valid session. Every service takes it first. */
export interface Actor {
  userId: number;
  accountId: number;
  brandId: number;
  username: string;
  domainName: string;
  /** sha256 of the session token (the sessions table's id). */
  sessionId: string;
  sessionCreatedAt: number;
  previousLoginAt: number | null;
  /** The brand requires two factors and the user has none yet: only the set-up calls are allowed. */
  mustSetUpSecondFactor?: boolean;
  /**
   * Set when the call carries an API token instead of the session cookie: the only resources it
   * reaches and the most it may do on each (never more than the user's own levels).
   */
  tokenScope?: ReadonlyMap<number, ApiTokenLevel>;
  /** What this call did so far, for the activity log (set by the API router for each call). */
  activity?: ActivityNotes;
  /** A change this call left to a server that has not applied it yet (the envelope's `job`). */
  pendingWork?: PendingWork;
}
