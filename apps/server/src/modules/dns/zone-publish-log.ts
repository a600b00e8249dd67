import { EventEmitter } from 'node:events';
import type { Db } from '../../db/database.ts';
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

/**
 * Within one process, the zone's job tells the requests waiting on its changes at once (between
 * processes they read their change's row every few tens of milliseconds). Per database: tests
 * run several in one process.
 */
const signals = new WeakMap<Db, EventEmitter>();

export function zoneSignals(db: Db): EventEmitter {
  let emitter = signals.get(db);
  if (!emitter) {
    emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    signals.set(db, emitter);
  }
  return emitter;
}
