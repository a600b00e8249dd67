import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { WorkerFailure } from '../drivers/files/confined/protocol.ts';
import { failureError } from '../drivers/files/confined/worker-errors.ts';
import { NodeUnreachableError } from '../errors.ts';
import { CHANNEL_BASE, encodeHeader, REQUEST_HEADER } from './channel-protocol.ts';
import type {
  NodeReadArgs,
  NodeReadName,
  NodeReadResult,
  NodeReadStreamArgs,
  NodeReadStreamName,
} from './node-reads.ts';
import type { NodeWriteArgs, NodeWriteName } from './node-writes.ts';

const JSON_BODY = { 'content-type': 'application/json' };

/** How long the agent has to start answering: a worker's own limit (120 s) and some room. */
const ANSWER_WITHIN_MS = 130_000;

/** How long a figure may take before the last one known is shown instead: a page waits for no frozen server. */
const FIGURE_WITHIN_MS = 3000;

/**
 * How long an idle connection is kept for the next call: well under the agent's own keep-alive
 * (channel-server.ts), so that a call never leaves on a connection the agent is closing.
 */
export const IDLE_CONNECTION_MS = 30_000;

/** Figures remembered (the most recently read), for pages while their server does not answer. */
const FIGURES_KEPT = 10_000;

function unreachable(error: Error): NodeUnreachableError {
  return new NodeUnreachableError(`node channel: ${error.message}`);
}

/** A call cut on a kept connection before any answer: what it would have failed with, as its cause. */
class StaleConnection extends Error {
  constructor(override readonly cause: NodeUnreachableError) {
    super(cause.message);
  }
}

async function bodyOf(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A panel instance's side of the node channel (channel-protocol.ts): calls to the agent of the
 * server its services live on. A server that does not answer is `error.node_unreachable` to the
 * customer; the agent's own refusals come back as the errors they were.
 */
export class NodeChannel {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 32, timeout: IDLE_CONNECTION_MS });
  private readonly lastFigures = new Map<string, number>();

  constructor(
    private readonly url: URL,
    private readonly token: string,
  ) {}

  /**
   * Sends one call and answers the agent's response once it has begun. `body` (a file's bytes)
   * is streamed; if it fails to read, the call is cut and fails with the reading's error.
   */
  async send(
    call: string,
    headers: Record<string, string>,
    body?: Readable | string,
    withinMs = ANSWER_WITHIN_MS,
  ): Promise<IncomingMessage> {
    try {
      return await this.sendOnce(call, headers, body, withinMs);
    } catch (error) {
      // A kept connection the agent closed as the call left on it: the agent read nothing of it,
      // so the call goes again on a new one. A streamed body cannot be sent twice, and never is.
      if (!(error instanceof StaleConnection)) throw error;
      if (typeof body === 'object') throw error.cause;
      return this.sendOnce(call, headers, body, withinMs).catch((again: unknown) => {
        throw again instanceof StaleConnection ? again.cause : again;
      });
    }
  }

  private async sendOnce(
    call: string,
    headers: Record<string, string>,
    body: Readable | string | undefined,
    withinMs: number,
  ): Promise<IncomingMessage> {
    const request = httpRequest(new URL(`${CHANNEL_BASE}/${call}`, this.url), {
      method: 'POST',
      agent: this.agent,
      headers: { authorization: `Bearer ${this.token}`, ...headers },
    });
    let bodyError: Error | undefined;
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    // An error after the answer began (the agent stopped reading an upload it refused, a cut
    // connection) is the response's to report, never the process's to crash on.
    request.on('error', () => undefined);
    // a deadline on silence, not on the whole call: an upload (a restore, a dump loaded) may take
    // longer while its bytes flow, and the agent answers once it has them all
    request.setTimeout(withinMs, () => request.destroy(new Error('no answer in time')));
    if (typeof body === 'string' || body === undefined) request.end(body);
    else {
      body.once('error', (error: Error) => {
        bodyError = error;
        request.destroy(error);
      });
      body.pipe(request);
    }
    try {
      const response = await answered;
      // the answer's bytes (a download) flow at its reader's pace, however slow
      request.setTimeout(0);
      if (response.statusCode === 200) return response;
      const text = await bodyOf(response);
      const failure = (JSON.parse(text || '{}') as { failure?: WorkerFailure }).failure;
      if (response.statusCode === 422 && failure) throw failureError(failure);
      throw new Error(`node channel: ${call} answered ${response.statusCode} ${text}`);
    } catch (error) {
      if (bodyError) throw bodyError;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ECONNRESET' && request.reusedSocket) throw new StaleConnection(unreachable(error as Error));
      if (code !== undefined || (error as Error).message === 'no answer in time') throw unreachable(error as Error);
      throw error;
    }
  }

  /** A call answered as `{ result }`. */
  async result<T>(
    call: string,
    headers: Record<string, string>,
    body?: Readable | string,
    withinMs?: number,
  ): Promise<T> {
    const response = await this.send(call, headers, body, withinMs);
    return (JSON.parse(await bodyOf(response)) as { result: T }).result;
  }

  read<N extends NodeReadName>(name: N, args: NodeReadArgs<N>, withinMs?: number): Promise<NodeReadResult<N>> {
    return this.result(`reads/${name}`, JSON_BODY, JSON.stringify({ args }), withinMs);
  }

  /**
   * A size the server holds (a home's, a mailbox's), asked for with a short deadline. Figures are
   * shown, not relied on: while the server does not answer, the page shows the last one this
   * instance read (0 if none) rather than fail or wait.
   */
  async figure(key: string, read: (withinMs: number) => Promise<number>): Promise<number> {
    try {
      const value = await read(FIGURE_WITHIN_MS);
      this.lastFigures.delete(key);
      this.lastFigures.set(key, value);
      if (this.lastFigures.size > FIGURES_KEPT) this.lastFigures.delete(this.lastFigures.keys().next().value as string);
      return value;
    } catch (error) {
      if (error instanceof NodeUnreachableError) return this.lastFigures.get(key) ?? 0;
      throw error;
    }
  }

  /** A read answered in bytes: the stream fails when the agent's does. */
  readStream<N extends NodeReadStreamName>(name: N, args: NodeReadStreamArgs<N>): Promise<Readable> {
    return this.send(`read-streams/${name}`, JSON_BODY, JSON.stringify({ args }));
  }

  /** A write answered once the agent has done it with every byte of `body` (a dump): none for a write without. */
  async write<N extends NodeWriteName>(name: N, args: NodeWriteArgs<N>, body?: Readable): Promise<void> {
    await this.result(`writes/${name}`, { [REQUEST_HEADER]: encodeHeader({ args }) }, body ?? '');
  }

  close(): void {
    this.agent.destroy();
  }
}
