import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileWorkers, WorkerRequest } from '../drivers/files/confined/protocol.ts';
import type { NodeChannel } from './channel-client.ts';
import {
  type ChannelArea,
  type ChannelFileRequest,
  decodeHeader,
  encodeHeader,
  META_HEADER,
  REQUEST_HEADER,
} from './channel-protocol.ts';

const JSON_BODY = { 'content-type': 'application/json' };

/**
 * The file operations of a panel instance apart from its server: each one goes to that server's
 * agent, which runs it in a confined worker of its own. The instance names the home by its
 * service's domain (its own hosting root may not even exist) and never a user.
 */
export class RemoteFileWorkers implements FileWorkers {
  holdsHome(): Promise<boolean> {
    return Promise.resolve(false);
  }

  constructor(
    private readonly channel: NodeChannel,
    /** This instance's PANEL_HOSTING_ROOT (or mail root), which the folders in requests are made from. */
    private readonly root: string,
    /** Homes, or (a mail move's ends) mail domains' folders. */
    private readonly area: ChannelArea = 'home',
  ) {}

  call<T>(request: WorkerRequest, input?: () => Readable): Promise<T> {
    const wire = this.wire(request);
    if (wire.op === 'usage') return this.usage(wire) as Promise<T>;
    if (!input) return this.channel.result<T>('files/call', JSON_BODY, JSON.stringify({ request: wire }));
    return this.channel.result<T>('files/call', { [REQUEST_HEADER]: encodeHeader(wire) }, input());
  }

  async stream(request: WorkerRequest): Promise<{ meta: Record<string, unknown>; output: Readable }> {
    const output = await this.channel.send('files/stream', JSON_BODY, JSON.stringify({ request: this.wire(request) }));
    const meta = decodeHeader(output.headers[META_HEADER]);
    if (typeof meta !== 'object' || meta === null) {
      output.destroy();
      throw new Error(`node channel: ${request.op} announced nothing`);
    }
    return { meta: meta as Record<string, unknown>, output };
  }

  async close(): Promise<void> {}

  /** A home's size is a figure: the last one known while its server does not answer. */
  private async usage(wire: ChannelFileRequest): Promise<{ bytes: number }> {
    const body = JSON.stringify({ request: wire });
    const bytes = await this.channel.figure(
      `home ${wire.domain}/${wire.folder.join('/')}`,
      async (withinMs) => (await this.channel.result<{ bytes: number }>('files/call', JSON_BODY, body, withinMs)).bytes,
    );
    return { bytes };
  }

  private wire(request: WorkerRequest): ChannelFileRequest {
    const domain = path.relative(path.resolve(this.root), request.base);
    if (domain === '' || domain.includes(path.sep) || domain.startsWith('.'))
      throw new Error(`node channel: ${request.base} is not a service home`);
    const op = request.op as ChannelFileRequest['op'];
    const where = this.area === 'home' ? {} : { area: this.area };
    return { op, ...where, domain, folder: request.folder, args: request.args };
  }
}
