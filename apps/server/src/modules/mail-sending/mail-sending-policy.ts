import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { openSocketToFolder, removeStaleSocket } from '../../drivers/mail-policy/policy-socket-file.ts';
import type { Logger } from '../../logger.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { type PolicyServer, parseListenAddress, startPolicyServer } from './policy-server.ts';
import { SendingLimitService } from './sending-limit.service.ts';

/** Postfix's policy service for the mailboxes' sending limit, and the limits it applies. */
export interface MailSendingPolicy {
  limits: SendingLimitService;
  /** Listens (once the panel is ready, so a panel that fails to start leaves no port open). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The sending-limit policy service when PANEL_MAIL_POLICY_LISTEN is set, on that address or Unix
 * socket only; undefined when off. Every instance may run one; they share the counters (whose old
 * ones a scheduled round purges).
 */
export function createMailSendingPolicy(deps: {
  db: Db;
  config: AppConfig;
  activity: ActivityService;
  now: () => number;
  log: Logger;
}): MailSendingPolicy | undefined {
  const { policyListen, limitPerHour } = deps.config.mailSending;
  if (policyListen === '') return undefined;
  const listen = parseListenAddress(policyListen);
  const log = deps.log.child({ module: 'mail-sending' });
  const limits = new SendingLimitService(deps.db, deps.activity, { limitPerHour, now: deps.now, log });
  let server: PolicyServer | undefined;
  return {
    limits,
    async start() {
      if ('path' in listen) await removeStaleSocket(listen.path);
      server = await startPolicyServer({ listen, decide: (request) => limits.decide(request), log });
      if ('path' in listen) openSocketToFolder(listen.path);
      log.info(
        { event: 'mail.policy_listening', ...server.address, limitPerHour },
        `mail sending limit: policy service on ${policyListen}`,
      );
    },
    async stop() {
      await server?.close();
    },
  };
}
