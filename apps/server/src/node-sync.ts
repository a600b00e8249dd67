import type { AreaServices } from './composition/area-services.ts';
import type { NodeParts } from './composition/node-parts.ts';
import type { PanelBase } from './composition/panel-base.ts';
import type { Db } from './db/database.ts';
import { defineRound, type RoundKind } from './jobs/rounds.ts';
import { serviceChangeLog } from './jobs/service-change-log.repository.ts';
import { syncFtpLogins } from './modules/ftp/ftp-sync.ts';
import { syncMail } from './modules/mail/mail-sync.ts';
import { PLACED_ROLES } from './modules/nodes/placement-roles.ts';
import { placementsRepository } from './modules/nodes/placements.repository.ts';

/**
 * The node's safety net (PANEL_AGENT_SYNC_SECONDS, hourly by default): every driver's `sync` run
 * on the node as `panel sync` would, repairing what changed on the server behind the panel's
 * back (a file edited by hand, a daemon's state lost). The instances schedule it; the node's
 * worker takes it, like any node work. Zones have their own (`dns.republish`, `dns.check-zone`).
 */
export const NODE_SYNC: RoundKind = { ...defineRound('node.sync', 3 * 3600), onServer: 'each' };

/** One area's sync: what it found different, and how much of that it could not repair. */
export interface AreaSync {
  drift: number;
  failed: number;
}

export type NodeSyncReport = { skipped: 'changes pending' } | { areas: Record<string, AreaSync | { error: string }> };

const ALL_REPAIRED = { dryRun: false };

function counted(entries: { repaired: boolean }[]): AreaSync {
  return { drift: entries.length, failed: entries.filter((entry) => !entry.repaired).length };
}

/**
 * The sync of each area on this node, in `panel sync`'s order (users first: FTP's folders and the
 * PHP pools name them).
 */
function areaSyncs(base: PanelBase, node: NodeParts, areas: () => Promise<AreaServices>) {
  const { db, now } = base;
  return {
    users: async () => counted(await node.web.users.sync(ALL_REPAIRED)),
    web: async () => counted(await (await areas()).hosting.changes.sync(ALL_REPAIRED)),
    ftp: async (): Promise<AreaSync> => {
      const drift = await syncFtpLogins(db, node.ftp.driver, ALL_REPAIRED, base.config.agent.node);
      const logins = drift.missing.length + drift.extra.length + drift.changed.length;
      const views = counted(drift.views);
      const homes = counted(drift.homes);
      return { drift: logins + views.drift + homes.drift, failed: views.failed + homes.failed };
    },
    mail: async (): Promise<AreaSync> => {
      const drift = await syncMail(db, node.mail.driver, { ...ALL_REPAIRED, now: now() }, base.config.agent.node);
      const found = counted([...drift.views, ...drift.folders, ...drift.filters]);
      const keys = await node.dkim.sync(ALL_REPAIRED);
      return { drift: found.drift + keys.length, failed: found.failed };
    },
    databases: async (): Promise<AreaSync> => {
      const drift = await (await areas()).databases.sync(ALL_REPAIRED);
      // Databases the panel does not know are listed, never touched: drift, not a failure.
      return {
        drift: drift.length,
        failed: drift.filter((entry) => entry.problem !== 'extra' && !entry.repaired).length,
      };
    },
  };
}

/** The services with any part on this server. */
async function servicesHere(db: Db, node: string): Promise<(serviceId: number) => boolean> {
  const holds = await Promise.all(PLACED_ROLES.map((role) => placementsRepository.holding(db, role, node)));
  return (serviceId) => holds.some((held) => held(serviceId));
}

/**
 * Runs every area's sync. While any service has changes still on their way, the round is skipped:
 * the sync would apply a change ahead of its place in the log (the next round runs it). An area
 * that fails is reported and the others still run; the job then fails, so `panel jobs` and
 * doctor's work-log check show it.
 */
export function createNodeSync(base: PanelBase, node: NodeParts, areas: () => Promise<AreaServices>) {
  const syncs = areaSyncs(base, node, areas);
  return {
    async run(): Promise<NodeSyncReport> {
      const { db, log } = base;
      if (await serviceChangeLog.anyPending(db, await servicesHere(db, base.config.agent.node))) {
        log.info({ event: 'node.sync_skipped' }, 'node sync skipped: changes still on their way');
        return { skipped: 'changes pending' };
      }
      const report: Record<string, AreaSync | { error: string }> = {};
      const failures: string[] = [];
      for (const [area, sync] of Object.entries(syncs)) {
        try {
          const found = await sync();
          report[area] = found;
          if (found.drift > 0) log.warn({ event: 'node.drift', area, ...found }, 'node sync repaired drift');
          if (found.failed > 0) failures.push(`${area}: ${found.failed} not repaired`);
        } catch (error) {
          report[area] = { error: (error as Error).message };
          failures.push(`${area}: ${(error as Error).message}`);
          log.error({ err: error, event: 'node.sync_failed', area }, 'node sync failed');
        }
      }
      if (failures.length > 0) throw new Error(`node sync: ${failures.join('; ')}`);
      return { areas: report };
    },
  };
}
