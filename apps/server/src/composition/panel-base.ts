import type { AppConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { DnsDriver } from '../drivers/dns/dns.driver.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import type { ChangeDelivery } from '../jobs/service-changes.ts';
import type { Logger } from '../logger.ts';
import type { PermissionService } from '../modules/permission/permission.service.ts';
import type { EventBus } from '../modules/realtime/event-bus.ts';
import type { WorkLanded } from '../modules/realtime/work-events.ts';

/**
 * What every part of the composition is built from: the process's configuration, database, bus,
 * work log and logger, and the few things it has one of (the permission service, the realtime
 * notice that work landed, how a call's change reaches its node). The panel (app.ts) and the
 * node agent (node-agent.ts) each make one and hand it to the same factories.
 */
export interface PanelBase {
  config: AppConfig;
  db: Db;
  events: EventBus;
  secretKey: Buffer;
  /** Epoch seconds. */
  now: () => number;
  jobs: JobEngine;
  dnsDriver: DnsDriver;
  log: Logger;
  permissions: PermissionService;
  landed: WorkLanded;
  /** A call's change goes through the work log and waits a short budget for its node's word. */
  delivery: ChangeDelivery;
}
