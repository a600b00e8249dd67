import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { goaccessReport } from '../../drivers/stats/goaccess.ts';
import { SiteLogs } from '../../drivers/stats/site-logs.ts';
import type { WebDriver } from '../../drivers/web/web.driver.ts';
import { serviceFileOwner } from '../files/service-file-owner.ts';
import { StatsRefresher } from './stats-refresher.ts';

const MIB = 1024 * 1024;
/** `nobody`: who GoAccess runs as when the service has no user of its own but the panel is root. */
const NOBODY = { uid: 65_534, gid: 65_534 };

/** The summary's largest report read (a month's JSON with 50 rows a panel is far smaller). */
const REPORT_MAX_BYTES = 16 * MIB;

export function statsDir(config: AppConfig): string {
  return config.stats.dir ?? path.join(config.dataDir, 'stats');
}

/**
 * The refresher a node's worker binds. GoAccess parses what any visitor wrote into the log, so it
 * never runs with the panel's rights: as the service's user, else as `nobody` when the panel is
 * root (a panel that is not root runs it as itself, having no other rights to give away).
 */
export function createStatsRefresher(db: Db, config: AppConfig, web: WebDriver, now: () => number): StatsRefresher {
  const ownerOf = serviceFileOwner(db, config, now);
  const root = process.getuid?.() === 0;
  return new StatsRefresher(
    db,
    {
      web,
      logs: new SiteLogs(statsDir(config)),
      report: async (serviceId, file) =>
        goaccessReport(file, {
          binary: config.stats.goaccess,
          owner: (await ownerOf(serviceId)) ?? (root ? NOBODY : undefined),
          geoipDatabase: config.stats.geoipDatabase,
          timeoutMs: config.stats.timeoutSeconds * 1000,
          maxBytes: REPORT_MAX_BYTES,
        }),
      countries: config.stats.geoipDatabase !== '',
      rotateBytes: config.stats.rotateMb * MIB,
    },
    now,
  );
}
