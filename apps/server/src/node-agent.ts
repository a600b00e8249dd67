import type { AreaServices } from './composition/area-services.ts';
import { composeNodeParts, composeZonePublishing } from './composition/node-parts.ts';
import type { PanelBase } from './composition/panel-base.ts';
import type { AppConfig } from './config.ts';
import type { Db } from './db/database.ts';
import type { DnsDriver } from './drivers/dns/dns.driver.ts';
import { cronEvery } from './jobs/cron-every.ts';
import type { JobEngine } from './jobs/job-engine.ts';
import type { Logger } from './logger.ts';
import { nodeHomes } from './modules/files/service-file-owner.ts';
import { nodeMailFolders } from './modules/mail/mail-folders.ts';
import { NODE_HEARTBEAT_SECONDS, NodesService } from './modules/nodes/nodes.service.ts';
import { PermissionService } from './modules/permission/permission.service.ts';
import type { EventBus } from './modules/realtime/event-bus.ts';
import { workEvents } from './modules/realtime/work-events.ts';
import { startNodeChannel } from './node-channel/channel-server.ts';
import { nodeChannelToken } from './node-channel/channel-token.ts';
import { NodeChannels } from './node-channel/node-channels.ts';
import { NODE_SYNC } from './node-sync.ts';
import { bindNodeWork, nodeWorkers } from './node-work.ts';

/** The host and port of PANEL_AGENT_URL, to listen on. */
function listenAddressOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port) };
}

export interface NodeAgentDeps {
  config: AppConfig;
  db: Db;
  events: EventBus;
  dnsDriver: DnsDriver;
  /** The work log (not started: the agent starts it with its workers and stops it). */
  jobs: JobEngine;
  secretKey: Buffer;
  log: Logger;
  /** Epoch milliseconds. */
  clock?: () => number;
}

export interface NodeAgent {
  stop(): Promise<void>;
}

/**
 * A node agent without the API: the node's workers on the work log, built by the same
 * composition as the panel's (the drivers the configuration names for this machine). The control
 * plane's instances send its jobs, and its results reach their requests through the log and their
 * browsers through the event bus; what a request needs from the server at once (a file, a size)
 * they ask its node channel for (node-channel/, at PANEL_AGENT_URL).
 */
export async function startNodeAgent(deps: NodeAgentDeps): Promise<NodeAgent> {
  const { config, db, jobs } = deps;
  const clock = deps.clock ?? Date.now;
  // No cache or bus for permissions: the agent reads them only to tell pages that work landed.
  const permissions = new PermissionService(db);
  const base: PanelBase = {
    config,
    db,
    events: deps.events,
    secretKey: deps.secretKey,
    now: () => Math.floor(clock() / 1000),
    jobs,
    dnsDriver: deps.dnsDriver,
    log: deps.log,
    permissions,
    landed: workEvents(permissions, deps.events),
    delivery: { jobs, waitMs: config.web.applyWaitSeconds * 1000 },
  };
  // Only the node's parts from the start, so an agent holds little more than its drivers and the
  // work log (the start bench holds it to 80 MB). The area services that certificates, backups,
  // installs and unsigning need are built at the first such job; a change they make (a
  // certificate's install, a restored database) is a job like any other, which this agent takes.
  // The unnamed machine's agent runs every service's backups and restores: the parts held by the
  // provider's servers it reaches through their agents (homes mirrored, databases dumped there).
  const unnamed = config.agent.node === '';
  const node = composeNodeParts(
    base,
    unnamed ? { channels: new NodeChannels(db, nodeChannelToken(deps.secretKey)) } : {},
  );
  let areas: Promise<AreaServices> | undefined;
  const areaServices = () => {
    areas ??= import('./composition/area-services.ts').then(({ composeAreas }) => composeAreas(base, node));
    return areas;
  };
  // A server of the provider's proves which one it is before it takes any work, then says it is up.
  const heartbeat = unnamed ? undefined : await announceNode(db, config, base.now, deps.log);
  await jobs.start({ workers: true });
  await bindNodeWork(jobs, nodeWorkers(base, node, composeZonePublishing(base), areaServices));
  // A named server's sync is its own queue's, scheduled by it (the instances schedule the unnamed one's).
  if (!unnamed) {
    const every = cronEvery(config.agent.syncSeconds);
    if (every) await jobs.schedule(NODE_SYNC, every, {});
    else await jobs.unschedule(NODE_SYNC);
  }
  await node.start();
  // The node channel: what the panel's instances ask this server for (its files and figures).
  const channel =
    config.agent.url === ''
      ? undefined
      : await startNodeChannel({
          listen: listenAddressOf(config.agent.url),
          token: nodeChannelToken(deps.secretKey),
          workers: node.fileWorkers,
          homes: nodeHomes(db, config, base.now),
          mailFolders: nodeMailFolders(db, config),
          node,
          log: deps.log,
        });
  return {
    async stop() {
      heartbeat?.stop();
      await channel?.close();
      await jobs.stop();
      await (await areas)?.close();
      await node.close();
    },
  };
}

/**
 * Checks the agent's server name and key against `nodes` (refusing to start on a wrong one), then
 * records that the server is up every NODE_HEARTBEAT_SECONDS. A timer, not a job: it is this
 * process's own liveness, which no other process may say for it.
 */
async function announceNode(db: Db, config: AppConfig, now: () => number, log: Logger): Promise<{ stop(): void }> {
  const nodes = new NodesService(db, now);
  const name = config.agent.node;
  if (!(await nodes.authenticate(name, config.agent.nodeKey)))
    throw new Error(`node agent: no server ${name} with this key (PANEL_NODE, PANEL_NODE_KEY; see panel node list)`);
  await nodes.reportHostingRoot(name, config.hosting.root);
  await nodes.heartbeat(name);
  const timer = setInterval(() => {
    nodes
      .heartbeat(name)
      .catch((error: unknown) => log.warn({ err: error, event: 'node.heartbeat_failed' }, 'heartbeat failed'));
  }, NODE_HEARTBEAT_SECONDS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
