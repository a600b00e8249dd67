import type { DatabaseKind, Db } from '../db/database.ts';
import { EmbeddedEngine } from './embedded-engine.ts';
import type { JobEngine } from './job-engine.ts';
import { PgBossEngine, type PgBossEngineOptions } from './pg-boss-engine.ts';
import { PlacedJobs } from './placed-jobs.ts';

export interface JobEngineSettings {
  /** How long finished jobs are kept for their status and `panel jobs`. */
  keepFinishedDays?: number;
  /** pg-boss only: see PgBossEngineOptions. */
  heartbeatSeconds?: number;
  superviseSeconds?: number;
  poolSize?: number;
}

/**
 * pg-boss on PostgreSQL; the embedded engine on SQLite (one process). Either is routed by
 * placement (placed-jobs.ts); `node` is this process's server (PANEL_NODE, '' for the unnamed one).
 */
export function createJobEngine(
  database: { db: Db; kind: DatabaseKind; url?: string; node?: string },
  settings: JobEngineSettings = {},
): JobEngine {
  return new PlacedJobs(engineFor(database, settings), database.db, database.node);
}

function engineFor(database: { db: Db; kind: DatabaseKind; url?: string }, settings: JobEngineSettings): JobEngine {
  if (database.kind === 'postgres') {
    if (!database.url) throw new Error('the job engine needs the PostgreSQL connection string');
    const options: PgBossEngineOptions = { connectionString: database.url, ...settings };
    return new PgBossEngine(options);
  }
  return new EmbeddedEngine(database.db, { keepFinishedDays: settings.keepFinishedDays });
}
