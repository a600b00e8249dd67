import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { openSocketToFolder, removeStaleSocket } from '../../drivers/mail-policy/policy-socket-file.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { type PolicyServer, parseListenAddress, startPolicyServer } from './policy-server.ts';
import { SendingLimitService } from './sending-limit.service.ts';

/**
 * Starts the sending-limit policy service with the app when PANEL_MAIL_POLICY_LISTEN is set:
 * it listens once the app is ready (so a panel that fails to start leaves no port open), on that
 * address or Unix socket only, and stops with the app. Every instance may run one; they share the counters.
 * Answers the limits' service (whose old counters a scheduled round purges), or undefined when off.
 */
export function startMailSendingPolicy(
  app: FastifyInstance,
  deps: { db: Db; config: AppConfig; activity: ActivityService; now: () => number },
): SendingLimitService | undefined {
  const { policyListen, limitPerHour } = deps.config.mailSending;
  if (policyListen === '') return undefined;
  const listen = parseListenAddress(policyListen);
  const log = app.log.child({ module: 'mail-sending' });
  const limits = new SendingLimitService(deps.db, deps.activity, { limitPerHour, now: deps.now, log });
  let server: PolicyServer | undefined;
  app.addHook('onReady', async () => {
    if ('path' in listen) await removeStaleSocket(listen.path);
    server = await startPolicyServer({ listen, decide: (request) => limits.decide(request), log });
    if ('path' in listen) openSocketToFolder(listen.path);
    log.info(
      { event: 'mail.policy_listening', ...server.address, limitPerHour },
      `mail sending limit: policy service on ${policyListen}`,
    );
  });
  app.addHook('onClose', async () => server?.close());
  return limits;
}
