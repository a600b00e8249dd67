import type { Db } from '../../db/database.ts';
import type { RegistryDriver, RegistryMessage } from '../../drivers/registry/registry.driver.ts';
import { domainRepository } from './domain.repository.ts';
import { registryMessagesRepository } from './registry-messages.repository.ts';

/** A transfer away the registry told of, as the domain view shows it. */
export interface TransferOut {
  state: 'pending' | 'clientApproved' | 'serverApproved';
  requestedBy: string;
  requestedAt: number;
  actionAt: number;
}

/** The status of a domain its registry reported transferred to another registrar. */
export const TRANSFERRED_OUT = 'transferredOut';

/** What a domain's status becomes when its registry reports a transfer away. */
const STATUS_AFTER: Record<NonNullable<RegistryMessage['transfer']>['state'], string> = {
  pending: 'pendingTransfer',
  clientApproved: TRANSFERRED_OUT,
  serverApproved: TRANSFERRED_OUT,
  clientRejected: 'active',
  clientCancelled: 'active',
  serverCancelled: 'active',
};

const SHOWN = new Set<string>(['pending', 'clientApproved', 'serverApproved']);

/** The domain's transfer away while it is under way or done; null otherwise (none, rejected, cancelled). */
export async function readTransferOut(db: Db, punycode: string): Promise<TransferOut | null> {
  const row = await registryMessagesRepository.latestTransferOut(db, punycode);
  if (!row || !SHOWN.has(row.transfer_state)) return null;
  return {
    state: row.transfer_state as TransferOut['state'],
    requestedBy: row.requested_by,
    requestedAt: Number(row.requested_at),
    actionAt: Number(row.action_at),
  };
}

/**
 * The registries' poll queues (EPP), read on a schedule (`registry.poll`) and by
 * `panel registry poll`: every message is kept, then acknowledged; a transfer away changes the
 * domain's status (pendingTransfer, transferredOut, active again when it was rejected or
 * cancelled) and shows on the domain.
 */
export class RegistryMessagesService {
  constructor(
    private readonly db: Db,
    private readonly registry: RegistryDriver,
    private readonly now: () => number,
  ) {}

  /** One round over every registry's queue; how many messages were taken. */
  async pollAll(): Promise<number> {
    if (!this.registry.drainMessages) return 0;
    return this.registry.drainMessages((message) => this.keep(message));
  }

  private async keep(message: RegistryMessage): Promise<void> {
    const { transfer } = message;
    await this.db.transaction().execute(async (trx) => {
      const kept = await registryMessagesRepository.insertOnce(trx, {
        registry: message.registry,
        message_id: message.id,
        domain: message.domain,
        transfer_state: transfer?.state ?? '',
        requested_by: transfer?.requestedBy ?? '',
        requested_at: transfer?.requestedAt ?? 0,
        action_by: transfer?.actionBy ?? '',
        action_at: transfer?.actionAt ?? 0,
        outgoing: message.outgoing ? 1 : 0,
        text: message.text.slice(0, 2000),
        queued_at: message.queuedAt || this.now(),
        received_at: this.now(),
      });
      if (!kept || !transfer || !message.outgoing || !message.domain) return;
      const resourceId = await registryMessagesRepository.domainResource(trx, message.domain);
      if (resourceId !== undefined)
        await domainRepository.update(trx, resourceId, { status: STATUS_AFTER[transfer.state] });
    });
  }

  recent(limit: number) {
    return registryMessagesRepository.recent(this.db, limit);
  }
}
