import pg from 'pg';
import { type EventBus, LocalEventBus, type PanelEvent } from './event-bus.ts';

const CHANNEL = 'panel247_events';

/**
 * LISTEN/NOTIFY fan-out: publish sends a NOTIFY, and every instance (this one included) receives
 * it on its own listening connection and hands it to its local listeners.
 *
 * The listening connection is one at a time: when PostgreSQL drops it (a restart, a terminated
 * backend), the lost client is ended and one reconnect loop runs until a new one listens — a
 * client can report its loss more than once (`error`, then `end`), and reconnecting on each
 * report doubled the listeners at every loss. Events sent while no connection listens are lost,
 * so `epoch` is undefined meanwhile and changes with each new connection: caches that rely on
 * events do not trust what they kept from before.
 */
export class PostgresEventBus extends LocalEventBus implements EventBus {
  private listener: pg.Client | undefined;
  private readonly publisher: pg.Pool;
  private closed = false;
  private reconnecting = false;
  private connections = 0;
  private listening = false;

  private constructor(
    private readonly url: string,
    private readonly retryMs: number,
  ) {
    super();
    this.publisher = new pg.Pool({ connectionString: url, max: 2 });
  }

  static async connect(url: string, options: { retryMs?: number } = {}): Promise<PostgresEventBus> {
    const bus = new PostgresEventBus(url, options.retryMs ?? 1000);
    await bus.listen();
    return bus;
  }

  override get epoch(): number | undefined {
    return this.listening ? this.connections : undefined;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.listener === client) {
        this.listener = undefined;
        this.listening = false;
      }
      client.end().catch(() => undefined);
      this.reconnect();
    };
    client.on('notification', (message) => {
      if (lost || message.channel !== CHANNEL || !message.payload) return;
      try {
        this.deliver(JSON.parse(message.payload) as PanelEvent);
      } catch {
        // A malformed payload is dropped; events are hints to refresh, never state.
      }
    });
    client.on('error', onLost);
    client.on('end', onLost);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    this.connections += 1;
    this.listening = true;
  }

  /** One loop at a time tries again every `retryMs` until a connection listens (or the bus closes). */
  private reconnect(): void {
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    const attempt = () => {
      if (this.closed) return;
      this.listen().then(
        () => {
          this.reconnecting = false;
        },
        () => setTimeout(attempt, this.retryMs),
      );
    };
    setTimeout(attempt, this.retryMs);
  }

  override async publish(event: PanelEvent): Promise<void> {
    await this.publisher.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
  }

  override async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    await super.close();
    await this.listener?.end().catch(() => undefined);
    await this.publisher.end().catch(() => undefined);
  }
}
