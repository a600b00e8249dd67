import pg from 'pg';
import { type EventBus, LocalEventBus, type PanelEvent } from './event-bus.ts';

const CHANNEL = 'panel247_events';

/**
 * LISTEN/NOTIFY fan-out: publish sends a NOTIFY, and every instance (this one included) receives
 * it on its own listening connection and hands it to its local listeners. The listener reconnects
 * if PostgreSQL drops it.
 */
export class PostgresEventBus extends LocalEventBus implements EventBus {
  private listener: pg.Client | undefined;
  private readonly publisher: pg.Pool;
  private closed = false;

  private constructor(private readonly url: string) {
    super();
    this.publisher = new pg.Pool({ connectionString: url, max: 2 });
  }

  static async connect(url: string): Promise<PostgresEventBus> {
    const bus = new PostgresEventBus(url);
    await bus.listen();
    return bus;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        this.deliver(JSON.parse(message.payload) as PanelEvent);
      } catch {
        // A malformed payload is dropped; events are hints to refresh, never state.
      }
    });
    client.on('error', () => {
      if (this.closed) return;
      setTimeout(() => this.listen().catch(() => undefined), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  override async publish(event: PanelEvent): Promise<void> {
    await this.publisher.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
  }

  override async close(): Promise<void> {
    this.closed = true;
    await super.close();
    await this.listener?.end().catch(() => undefined);
    await this.publisher.end().catch(() => undefined);
  }
}
