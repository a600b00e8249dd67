import type { DnsRecordRow } from '../../db/schema.ts';
import type { RRset } from '../../drivers/dns/dns.driver.ts';

/** What a change must bring to the DNS server. */
export type ZonePublish =
  /** The RRsets of these names and types, as the database holds them when they are sent. */
  | { touched: { zona: string; type: string }[] }
  /** The whole zone, rewritten: what it had, so that RRsets it no longer has are removed. */
  | { zoneBefore: RRset[] }
  /**
   * The server compared with the database and repaired. `recordRepairs`: what it repaired goes to
   * the zone's history (an explicit sync). `checks`: after a change the server did not confirm,
   * how many more passes must find the zone clean (a hung server may apply the change late).
   */
  | { sync: true; recordRepairs?: boolean; checks?: number };

/** How to take a change out of the database when the server refuses it. */
export interface ZoneUndo {
  /** The ids to take out ('all' for every record), */
  remove: number[] | 'all';
  /** the rows to put back, */
  restore: DnsRecordRow[];
  /** and the history's change set of it. */
  changeSet?: number;
}

export interface DriftReport {
  zone: string;
  missing: string[];
  extra: string[];
  changed: string[];
}

/** What the request waiting on a change is told. */
export type ZoneChangeOutcome =
  | { report: DriftReport }
  | { refused: { reason: 'name' | 'content' | 'other'; detail: string } }
  /** The last attempt failed (server down, no answer); the work log tries again. */
  | { failedAttempt: { messageKey: string; detail: string } };

export interface ZoneChangeEntry {
  id: number;
  publish: ZonePublish;
  undo: ZoneUndo | null;
}

/** The key of a zone's signals (see jobs/work-word.ts). */
export function zoneKey(serviceId: number): string {
  return `dns:${serviceId}`;
}
