import { isHostName } from '@panel247/contract/dns-rules';
import { isFileName } from '@panel247/contract/file-rules';
import { z } from 'zod';
import type { WorkerRequest } from '../drivers/files/confined/protocol.ts';

/**
 * The node channel's wire: HTTP on the agent's address (PANEL_AGENT_URL), every call a POST with
 * the channel's bearer token.
 *
 * - `files/call` and `files/stream`: one file operation in a service's home. Its request is the
 *   body (`{ request }`), or, for an operation that reads bytes (an upload), the `x-p247-request`
 *   header (base64url JSON) with the bytes as the body. A call answers `{ result }`; a stream
 *   answers its announcement in `x-p247-meta` and its bytes as the body (a failure midway cuts
 *   the connection).
 * - `reads/<name>` and `read-streams/<name>`: a read of node-reads.ts, its arguments as
 *   `{ args }`; answered as `{ result }` or as bytes.
 * - `writes/<name>`: a write of node-writes.ts, its arguments as `{ args }` in the
 *   `x-p247-request` header and its bytes (a dump) as the body; answered `{ result: null }`.
 *
 * Every failure before an answer is `{ failure }` (worker-errors.ts) with status 422, so the
 * panel's typed errors (a field, not found, quota, a daemon's refusal) reach the caller as they are.
 */
export const CHANNEL_BASE = '/p247-node/v1';
export const REQUEST_HEADER = 'x-p247-request';
export const META_HEADER = 'x-p247-meta';

/**
 * What the channel runs: the file manager's operations, a home's usage and an install's target
 * check, and a move's two ends (a home read whole as a tar, and written back from one on the
 * server it moves to). Backups' restores, installs and the folders of sites and FTP accounts are
 * the node's own work from the log, never asked for over the wire.
 */
const CHANNEL_OPS = [
  'list',
  'read',
  'save',
  'write',
  'vacant',
  'mkdir',
  'rename',
  'remove',
  'copyOrMove',
  'chmod',
  'download',
  'zip',
  'extract',
  'usage',
  'installTarget',
  'tar',
  'restore',
] as const satisfies readonly WorkerRequest['op'][];

/**
 * Where a file operation works: a service's home (`home`, the default), or a mail domain's folder
 * under the server's mail root (`mail`), which only a mail move's two ends reach.
 */
export const CHANNEL_AREAS = ['home', 'mail'] as const;
export type ChannelArea = (typeof CHANNEL_AREAS)[number];
export const MAIL_AREA_OPS: readonly ChannelFileRequest['op'][] = ['tar', 'restore'];

/**
 * A file operation as it crosses: the home (or mail folder) is named by its service's domain,
 * never by a path, and no owner travels; the node finds both itself (its own hosting root and the
 * service's user, or its mail root and the mail user).
 */
export const channelFileRequest = z
  .object({
    op: z.enum(CHANNEL_OPS),
    area: z.enum(CHANNEL_AREAS).optional(),
    domain: z.string().max(253).refine(isHostName),
    folder: z.array(z.string().refine(isFileName)).max(64),
    args: z.record(z.string(), z.unknown()),
  })
  .strict();
export type ChannelFileRequest = z.infer<typeof channelFileRequest>;

export function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeHeader(text: string | string[] | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
