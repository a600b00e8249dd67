import { connect, type TLSSocket } from 'node:tls';
import { encodeFrame, FrameReader } from './epp-frame.ts';
import { type EppGreeting, type EppResponse, eppDocument, parseEpp, readGreeting, readResponse } from './epp-xml.ts';

/** Where a registry listens and how the panel proves who it is (RFC 5734: TLS with a client certificate). */
export interface EppEndpoint {
  host: string;
  port: number;
  /** PEM: the registrar's client certificate and key, and the CA that signed the registry's. */
  cert: string;
  key: string;
  ca?: string;
  /** How long a command may wait for its answer. */
  timeoutMs?: number;
}

/**
 * The connection ended before a command's answer arrived. `sent`: the command's bytes had left,
 * so the registry may have executed it: the caller finds out (an `info`) before acting again.
 */
export class EppConnectionLost extends Error {
  constructor(
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * One TLS connection to a registry: the greeting it sends first, then one command at a time,
 * each answered by the next frame (RFC 5730 section 2: a server answers in order).
 */
export class EppConnection {
  private readonly reader = new FrameReader();
  private waiting: { resolve: (xml: string) => void; reject: (error: Error) => void; sent: boolean } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private ended: Error | undefined;

  private constructor(
    private readonly socket: TLSSocket,
    private readonly timeoutMs: number,
  ) {
    socket.on('data', (chunk: Buffer) => {
      let frames: string[];
      try {
        frames = this.reader.push(chunk);
      } catch (error) {
        socket.destroy(error as Error);
        return;
      }
      for (const frame of frames) {
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting?.resolve(frame);
      }
    });
    const end = (error?: Error) => {
      this.ended ??= error ?? new Error('the registry closed the connection');
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(new EppConnectionLost(this.ended.message, waiting.sent));
    };
    socket.on('error', end);
    socket.on('close', () => end());
  }

  /** Connects and reads the greeting. */
  static async open(endpoint: EppEndpoint): Promise<{ connection: EppConnection; greeting: EppGreeting }> {
    const socket = connect({
      host: endpoint.host,
      port: endpoint.port,
      cert: endpoint.cert,
      key: endpoint.key,
      ...(endpoint.ca ? { ca: endpoint.ca } : {}),
      servername: /^[\d.:]+$/.test(endpoint.host) ? undefined : endpoint.host,
      minVersion: 'TLSv1.2',
    });
    const connection = new EppConnection(socket, endpoint.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const greeting = readGreeting(parseEpp(await connection.nextFrame(false)));
    return { connection, greeting };
  }

  get open(): boolean {
    return this.ended === undefined;
  }

  /** Sends one command and answers its response; commands wait for the one before. */
  request(xml: string): Promise<EppResponse> {
    return this.exchange(xml, (epp) => readResponse(epp));
  }

  /** `hello`, which a greeting answers (RFC 5730 section 2.3): keeps an idle session. */
  hello(): Promise<EppGreeting> {
    return this.exchange(eppDocument('<hello/>'), (epp) => readGreeting(epp));
  }

  private exchange<T>(xml: string, read: (epp: ReturnType<typeof parseEpp>) => T): Promise<T> {
    const run = this.queue.then(async () => {
      if (this.ended) throw new EppConnectionLost(this.ended.message, false);
      const answer = this.nextFrame(true);
      this.socket.write(encodeFrame(xml));
      return read(parseEpp(await answer));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private nextFrame(sent: boolean): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        // no answer in time: the connection cannot be trusted with the next command's answer
        this.socket.destroy(new Error('the registry did not answer in time'));
      }, this.timeoutMs);
      this.waiting = {
        sent,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  /** Ends the connection (after a logout, or without one when it is broken). */
  close(): void {
    this.socket.end();
    this.socket.destroySoon?.();
  }
}
