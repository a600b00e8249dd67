import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { NodeParts } from '../composition/node-parts.ts';
import type { FileOwner, FileWorkers, WorkerRequest } from '../drivers/files/confined/protocol.ts';
import { describeFailure } from '../drivers/files/confined/worker-errors.ts';
import { NotFoundError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import {
  CHANNEL_BASE,
  channelFileRequest,
  decodeHeader,
  encodeHeader,
  MAIL_AREA_OPS,
  META_HEADER,
  REQUEST_HEADER,
} from './channel-protocol.ts';
import { carriesToken } from './channel-token.ts';
import { NODE_READ_STREAMS, NODE_READS } from './node-reads.ts';
import { NODE_WRITES } from './node-writes.ts';

/** The services' homes on this node, as the node knows them (the panel never names a path or a user). */
export interface NodeHomes {
  root: string;
  /** Whether a hosting service of this domain exists. */
  hosted(domain: string): Promise<boolean>;
  /** Makes the service's home if it is not there yet (a new service's, before its first change lands). */
  ensure(domain: string): Promise<void>;
  /** Whose rights work in that home runs with (service-file-owner.ts). */
  ownerOf(domain: string): Promise<FileOwner | undefined>;
}

export interface NodeChannelDeps {
  /** Where it listens: the host and port of PANEL_AGENT_URL. */
  listen: { host: string; port: number };
  token: string;
  workers: FileWorkers;
  homes: NodeHomes;
  /** The mail domains' folders under this server's mail root; none without one. */
  mailFolders?: NodeHomes | undefined;
  /** What the reads and writes run on (node-reads.ts, node-writes.ts): the agent's node parts. */
  node: NodeParts;
  log: Logger;
}

export interface NodeChannelServer {
  /** The port it listens on (the one asked for, or the kernel's choice for 0). */
  port: number;
  close(): Promise<void>;
}

/** Bytes a call's JSON may take: a file the editor saves (1 MiB) in JSON, and room. */
const JSON_LIMIT = 4 * 1024 * 1024;

class BadRequest extends Error {}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Bytes as the answer's body; a failure midway cuts the connection, which the reader sees as its stream failing. */
async function sendBytes(output: Readable, response: ServerResponse): Promise<void> {
  await pipeline(output, response).catch(() => response.destroy());
}

async function jsonOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_LIMIT) throw new BadRequest('call too large');
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {}
  throw new BadRequest('call is not JSON');
}

/**
 * The node channel's server, in the node agent: the file operations and reads a panel instance
 * apart from this server asks for (channel-protocol.ts). Plain node:http, not the panel's
 * Fastify: the agent stays small. It trusts the control plane that holds the token with what to
 * do; where and as whom it decides itself: the home is its own root and the service's domain, the
 * rights those of the service's user, each file operation in a confined worker as everywhere.
 */
export async function startNodeChannel(deps: NodeChannelDeps): Promise<NodeChannelServer> {
  const { workers, homes, log } = deps;

  /** The operation: in the header when the body is its input bytes, else the body itself. */
  async function workerRequest(request: IncomingMessage): Promise<{ work: WorkerRequest; withInput: boolean }> {
    const header = request.headers[REQUEST_HEADER];
    const withInput = header !== undefined;
    const parsed = channelFileRequest.safeParse(withInput ? decodeHeader(header) : (await jsonOf(request)).request);
    if (!parsed.success) throw new BadRequest('malformed file request');
    const { op, area, domain, folder, args } = parsed.data;
    if (area === 'mail' && !MAIL_AREA_OPS.includes(op)) throw new BadRequest(`${op} is not a mail folder's`);
    const folders = area === 'mail' ? deps.mailFolders : homes;
    if (!folders || !(await folders.hosted(domain))) throw new NotFoundError();
    // Measuring a home makes nothing: a missing one is 0 bytes.
    if (op !== 'usage') await folders.ensure(domain);
    const owner = await folders.ownerOf(domain);
    return { work: { op, base: path.join(folders.root, domain), folder, args, owner }, withInput };
  }

  async function route(request: IncomingMessage, response: ServerResponse, route: string): Promise<void> {
    if (route === 'files/call') {
      const { work, withInput } = await workerRequest(request);
      const result = await workers.call(work, withInput ? () => request : undefined);
      return answer(response, 200, { result });
    }
    if (route === 'files/stream') {
      const { work } = await workerRequest(request);
      const { meta, output } = await workers.stream(work);
      response.writeHead(200, { 'content-type': 'application/octet-stream', [META_HEADER]: encodeHeader(meta) });
      // A failure midway cuts the connection: the panel's reader sees its stream fail.
      return sendBytes(output, response);
    }
    const [kind, name] = route.split('/');
    if (kind === 'reads' && name && Object.hasOwn(NODE_READS, name)) {
      const entry = NODE_READS[name as keyof typeof NODE_READS];
      const args = entry.args.safeParse((await jsonOf(request)).args);
      if (!args.success) throw new BadRequest(`bad arguments for ${name}`);
      return answer(response, 200, { result: await entry.run(deps.node, args.data as never) });
    }
    if (kind === 'read-streams' && name && Object.hasOwn(NODE_READ_STREAMS, name)) {
      const entry = NODE_READ_STREAMS[name as keyof typeof NODE_READ_STREAMS];
      const args = entry.args.safeParse((await jsonOf(request)).args);
      if (!args.success) throw new BadRequest(`bad arguments for ${name}`);
      const output = await entry.run(deps.node, args.data);
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      return sendBytes(output, response);
    }
    if (kind === 'writes' && name && Object.hasOwn(NODE_WRITES, name)) {
      const entry = NODE_WRITES[name as keyof typeof NODE_WRITES];
      const args = entry.args.safeParse((decodeHeader(request.headers[REQUEST_HEADER]) as { args?: unknown })?.args);
      if (!args.success) throw new BadRequest(`bad arguments for ${name}`);
      await entry.run(deps.node, args.data as never, request);
      return answer(response, 200, { result: null });
    }
    request.resume();
    answer(response, 404, { error: 'no such call' });
  }

  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    if (request.method !== 'POST' || !url.startsWith(`${CHANNEL_BASE}/`)) {
      request.resume();
      return answer(response, 404, { error: 'no such call' });
    }
    if (!carriesToken(request.headers.authorization, deps.token)) {
      request.resume();
      log.warn({ event: 'node_channel.refused', from: request.socket.remoteAddress }, 'node channel: bad token');
      return answer(response, 401, { error: 'token refused' });
    }
    route(request, response, url.slice(CHANNEL_BASE.length + 1)).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      if (error instanceof BadRequest) return answer(response, 400, { error: error.message });
      const failure = describeFailure(error);
      if (failure.kind === 'system')
        log.error({ err: error, event: 'node_channel.failed', call: url }, 'node channel call failed');
      answer(response, 422, { failure });
    });
  });
  // Longer than the instances keep an idle connection (IDLE_CONNECTION_MS): the instance always
  // lets one go first, so no call leaves on a connection this side is closing.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.listen.port, deps.listen.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
