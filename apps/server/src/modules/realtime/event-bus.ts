import type { WorkArea } from '@panel247/contract/work-areas';
/**
 * Events the server pushes to browsers through the realtime socket. They travel through an
 * EventBus so that, on PostgreSQL, an event raised by one API instance (or by the CLI) reaches the
 * sockets held by every other instance.
 */
export type PanelEvent =
  | { type: 'permissions.changed'; userIds: number[]; resourceId: number | null }
  | { type: 'session.ended'; sessionIds: string[] }
  /** A resource's changes landed on a server or failed there (see modules/changes/work-events.ts). */
  | { type: 'work.changed'; userIds: number[]; area: WorkArea; resourceId: number };

export interface EventBus {
  /**
   * Which unbroken run of delivery this is: undefined while events may be missed (the bus is
   * reconnecting), and a new value after each reconnect. A cache that relies on events to drop
   * stale entries may reuse an entry only if the epoch it was cached in is still the current one.
   */
  readonly epoch: number | undefined;
  publish(event: PanelEvent): Promise<void>;
  subscribe(listener: (event: PanelEvent) => void): () => void;
  close(): Promise<void>;
}

/** One process: events go straight to this process's listeners. */
export class LocalEventBus implements EventBus {
  private readonly listeners = new Set<(event: PanelEvent) => void>();

  /** In one process nothing is ever missed. */
  get epoch(): number | undefined {
    return 0;
  }

  async publish(event: PanelEvent): Promise<void> {
    this.deliver(event);
  }

  subscribe(listener: (event: PanelEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected deliver(event: PanelEvent) {
    for (const listener of this.listeners) listener(event);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
