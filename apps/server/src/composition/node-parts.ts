import { ConfinedWorkers } from '../drivers/files/confined/confined-workers.ts';
import type { FileWorkers } from '../drivers/files/confined/protocol.ts';
import type { ActivityService } from '../modules/activity/activity.service.ts';
import type { PartsElsewhere } from '../modules/backups/backup.service.ts';
import { createDatabasesNode } from '../modules/databases/create-databases-service.ts';
import type { ZonePublishWorker } from '../modules/dns/zone-publish-worker.ts';
import { createZonePublishing } from '../modules/dns/zone-publishing-node.ts';
import { createFtpNode } from '../modules/ftp/create-ftp-service.ts';
import { createWebNode, type WebNode } from '../modules/hosting/web-node.ts';
import { createMailNode } from '../modules/mail/create-mail-service.ts';
import { createDkimSigning, type DkimSigning } from '../modules/mail/dkim-signing.ts';
import type { MailSendingPolicy } from '../modules/mail-sending/mail-sending-policy.ts';
import type { NodeChannel } from '../node-channel/channel-client.ts';
import type { NodeChannels } from '../node-channel/node-channels.ts';
import { partsElsewhere } from '../node-channel/parts-elsewhere.ts';
import { PlacedFileWorkers } from '../node-channel/placed-file-workers.ts';
import { RemoteFileWorkers } from '../node-channel/remote-file-workers.ts';
import { readingWherePlaced } from '../node-channel/remote-node-parts.ts';
import type { PanelBase } from './panel-base.ts';

/**
 * A server's own parts: each area's driver and the worker that applies a service's changes with
 * it. What a node agent holds from its start (cheap: the drivers connect at their first call);
 * the panel's request-side services are built on the same parts when the panel is its machine's
 * agent.
 */
export interface NodeParts {
  web: WebNode;
  ftp: ReturnType<typeof createFtpNode>;
  mail: ReturnType<typeof createMailNode>;
  databases: ReturnType<typeof createDatabasesNode>;
  /**
   * Where work in the customers' homes runs: this machine's confined workers, or, for an
   * instance apart from its server, that server's agent's.
   */
  fileWorkers: FileWorkers;
  /**
   * For a panel process: the homes and mail folders other machines hold, as its backups reach
   * them (mirrored through their agents); undefined: every part is on this machine.
   */
  elsewhere?: PartsElsewhere | undefined;
  /** The DKIM signer's keys (OpenDKIM's files), on the mail node. */
  dkim: DkimSigning;
  /**
   * Postfix's policy service for the mailboxes' sending limit, beside the mail daemons; undefined
   * unless PANEL_MAIL_POLICY_LISTEN is set (its modules are loaded only then).
   */
  sendingPolicy(): Promise<MailSendingPolicy | undefined>;
  /** Starts what listens on the node (the policy service), once its work is bound. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface NodePartsOptions {
  /** The process's activity log, when it has one already (the panel's). */
  activity?: ActivityService;
  /**
   * Set for a panel process (not an agent): the parts of services on the provider's named
   * servers are reached through those servers' agents.
   */
  channels?: NodeChannels;
  /**
   * Set for a panel instance apart from the unnamed machine (PANEL_AGENT=separate): that
   * machine's files and figures are its agent's, asked for through its node channel.
   */
  unnamed?: NodeChannel;
}

export function composeNodeParts(base: PanelBase, options: NodePartsOptions = {}): NodeParts {
  const { db, config, secretKey, now, landed } = base;
  const { activity, channels, unnamed } = options;
  const root = config.hosting.root as string;
  const databases = createDatabasesNode(db, config, secretKey, now, landed);
  const here = unnamed ? new RemoteFileWorkers(unnamed, root) : new ConfinedWorkers();
  const fileWorkers = channels ? new PlacedFileWorkers(db, here, channels, root, now) : here;
  let policy: Promise<MailSendingPolicy | undefined> | undefined;
  const sendingPolicy = () => {
    policy ??= config.mailSending.policyListen === '' ? Promise.resolve(undefined) : makeSendingPolicy(base, activity);
    return policy;
  };
  const parts: NodeParts = {
    web: createWebNode(db, config, secretKey, now, { landed, workers: fileWorkers }),
    ftp: createFtpNode(db, config, now, landed, fileWorkers),
    mail: createMailNode(db, config, now, { landed }),
    databases,
    fileWorkers,
    elsewhere: channels && partsElsewhere(channels, { web: root, mail: config.mail.root as string }, unnamed),
    dkim: createDkimSigning(db, config, secretKey),
    sendingPolicy,
    start: async () => (await sendingPolicy())?.start(),
    async close() {
      await (await policy)?.stop();
      await fileWorkers.close();
      await databases.driver.close();
      channels?.close();
      unnamed?.close();
    },
  };
  return channels ? readingWherePlaced(parts, channels, unnamed) : parts;
}

/** The limit's refusals go to the mailbox owner's activity log (the panel's, or one of the agent's own). */
async function makeSendingPolicy(base: PanelBase, activity?: ActivityService): Promise<MailSendingPolicy | undefined> {
  const { db, config, now, log } = base;
  const [{ createMailSendingPolicy }, { ActivityService: Activity }] = await Promise.all([
    import('../modules/mail-sending/mail-sending-policy.ts'),
    import('../modules/activity/activity.service.ts'),
  ]);
  const activityLog =
    activity ?? new Activity(db, base.permissions, { retentionDays: config.activity.retentionDays, now, log });
  return createMailSendingPolicy({ db, config, activity: activityLog, now, log });
}

/** The zones' publishing alone (the agent's: the panel's DnsService publishes with its own parts). */
export function composeZonePublishing(base: PanelBase): ZonePublishWorker {
  const { config } = base;
  return createZonePublishing(
    base.db,
    base.dnsDriver,
    {
      nameservers: config.dns.nameservers,
      defaultTtl: config.dns.defaultTtl,
      history: { keep: config.dns.historyKeep, days: config.dns.historyDays },
    },
    base.now,
    base.jobs,
    { recheckSeconds: config.dns.republishSeconds },
    base.landed,
  );
}
