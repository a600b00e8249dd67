import { randomBytes } from 'node:crypto';
import { EppConnection, EppConnectionLost, type EppEndpoint } from './epp-connection.ts';
import { closesSession, expectSuccess } from './epp-result.ts';
import {
  CONTACT_NS,
  DOMAIN_NS,
  type EppGreeting,
  type EppResponse,
  eppCommand,
  HOST_NS,
  RGP_NS,
  SECDNS_NS,
  xmlText,
} from './epp-xml.ts';

/** A registry as the provider configured it (one or more TLDs). */
export interface EppRegistryOptions extends EppEndpoint {
  name: string;
  clientId: string;
  password: string;
  /** Logged-in connections kept at most. */
  sessions: number;
  /** Commands a second at most (the registry's own limit). */
  ratePerSecond: number;
  /** An idle session says `hello` this often, so the registry keeps it. */
  keepAliveMs: number;
}

/** A command's trace: what the activity log records of it. */
export interface EppTransaction {
  registry: string;
  command: string;
  code: number;
  clTRID: string;
  svTRID: string;
}

/** The objects and extensions the panel speaks, of those a registry may announce. */
const WANTED_OBJECTS = [DOMAIN_NS, HOST_NS, CONTACT_NS];
const WANTED_EXTENSIONS = [SECDNS_NS, RGP_NS];

/** A client transaction id: unique across instances and restarts (RFC 5730: 3 to 64 characters). */
export function newClientTransactionId(clientId: string): string {
  return `${clientId.slice(0, 16)}-${Date.now().toString(36)}-${randomBytes(9).toString('base64url')}`;
}

interface Session {
  connection: EppConnection;
  greeting: EppGreeting;
  lastUsed: number;
}

/**
 * The logged-in sessions of one registry: at most `sessions` connections, each used by one
 * command at a time, kept with `hello` while idle and opened again after a drop; commands wait
 * for a free session and for the registry's rate.
 */
export class EppPool {
  private readonly idle: Session[] = [];
  private opened = 0;
  private readonly waiters: ((session: Session) => void)[] = [];
  private nextSlot = 0;
  private readonly keepAlive: NodeJS.Timeout;
  private closed = false;
  /** What the registry announced at the last login. */
  greeting: EppGreeting | undefined;

  constructor(
    private readonly options: EppRegistryOptions,
    private readonly onTransaction: (transaction: EppTransaction) => void = () => undefined,
  ) {
    this.keepAlive = setInterval(() => void this.sayHello(), Math.max(1000, options.keepAliveMs / 2));
    this.keepAlive.unref();
  }

  /** The registrar's login at this registry. */
  get clientId(): string {
    return this.options.clientId;
  }

  /**
   * Sends one command (`verb`, an object's command element; `extension`, its extension
   * elements) on a free session and answers the registry's response, refusals included.
   */
  async command(name: string, verb: string, extension = ''): Promise<EppResponse> {
    const session = await this.acquire();
    const clTRID = newClientTransactionId(this.options.clientId);
    try {
      await this.pace();
      const response = await session.connection.request(eppCommand(verb, extension, clTRID));
      this.onTransaction({
        registry: this.options.name,
        command: name,
        code: response.code,
        clTRID,
        svTRID: response.svTRID,
      });
      if (closesSession(response.code)) session.connection.close();
      return response;
    } finally {
      this.release(session);
    }
  }

  /** A logged-in session's `hello`: what the registry announces now (its greeting). */
  async hello(): Promise<EppGreeting> {
    const session = await this.acquire();
    try {
      this.greeting = await session.connection.hello();
      return this.greeting;
    } finally {
      this.release(session);
    }
  }

  /** The registry's own login password changed (RFC 5730 `newPW`): on a fresh session, then used by all. */
  async changePassword(newPassword: string): Promise<void> {
    const { connection } = await this.login(newPassword);
    connection.close();
    this.options.password = newPassword;
    for (const session of this.idle.splice(0)) {
      session.connection.close();
      this.opened -= 1;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.keepAlive);
    await Promise.all(
      this.idle.splice(0).map(async (session) => {
        const logout = eppCommand('<logout/>', '', newClientTransactionId(this.options.clientId));
        await session.connection.request(logout).catch(() => undefined);
        session.connection.close();
      }),
    );
  }

  private async acquire(): Promise<Session> {
    if (this.closed) throw new EppConnectionLost('the registry pool is closed', false);
    while (this.idle.length > 0) {
      const session = this.idle.pop() as Session;
      if (session.connection.open) return session;
      this.opened -= 1;
    }
    if (this.opened < this.options.sessions) {
      this.opened += 1;
      try {
        return await this.login();
      } catch (error) {
        this.opened -= 1;
        throw error;
      }
    }
    return new Promise<Session>((resolve) => this.waiters.push(resolve));
  }

  private release(session: Session): void {
    session.lastUsed = Date.now();
    if (!session.connection.open) {
      this.opened -= 1;
      // a waiter gets a new session in its place
      const waiter = this.waiters.shift();
      if (waiter) {
        this.opened += 1;
        this.login().then(waiter, () => {
          this.opened -= 1;
        });
      }
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter(session);
    else this.idle.push(session);
  }

  /** Opens a connection and logs in with the objects and extensions both sides speak. */
  private async login(newPassword?: string): Promise<Session> {
    const { connection, greeting } = await EppConnection.open(this.options);
    this.greeting = greeting;
    const objects = WANTED_OBJECTS.filter((uri) => greeting.objects.includes(uri));
    const extensions = WANTED_EXTENSIONS.filter((uri) => greeting.extensions.includes(uri));
    const svcs =
      objects.map((uri) => `<objURI>${uri}</objURI>`).join('') +
      (extensions.length > 0
        ? `<svcExtension>${extensions.map((uri) => `<extURI>${uri}</extURI>`).join('')}</svcExtension>`
        : '');
    const login =
      `<login><clID>${xmlText(this.options.clientId)}</clID><pw>${xmlText(this.options.password)}</pw>` +
      (newPassword ? `<newPW>${xmlText(newPassword)}</newPW>` : '') +
      `<options><version>1.0</version><lang>en</lang></options><svcs>${svcs}</svcs></login>`;
    const clTRID = newClientTransactionId(this.options.clientId);
    try {
      const response = await connection.request(eppCommand(login, '', clTRID));
      this.onTransaction({
        registry: this.options.name,
        command: 'login',
        code: response.code,
        clTRID,
        svTRID: response.svTRID,
      });
      expectSuccess(response);
    } catch (error) {
      connection.close();
      throw error;
    }
    return { connection, greeting, lastUsed: Date.now() };
  }

  /** Spreads commands to at most `ratePerSecond`, across this pool's sessions. */
  private async pace(): Promise<void> {
    const gap = 1000 / Math.max(1, this.options.ratePerSecond);
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + gap;
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
  }

  /** A `hello` on each session idle for longer than the keep-alive; a broken one is let go. */
  private async sayHello(): Promise<void> {
    const due = Date.now() - this.options.keepAliveMs;
    for (const session of [...this.idle]) {
      if (session.lastUsed > due) continue;
      const at = this.idle.indexOf(session);
      if (at < 0) continue;
      this.idle.splice(at, 1);
      const greeting = await session.connection.hello().catch(() => undefined);
      if (greeting) this.greeting = greeting;
      this.release(session);
    }
  }
}
