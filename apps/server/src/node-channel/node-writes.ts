import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { NodeParts } from '../composition/node-parts.ts';
import { databaseName, serviceId } from './node-reads.ts';

/**
 * What a move asks of the server a part reaches, beyond files: a databases move's databases made
 * there, and each one written from the old server's dump. Each is named once here, with the checks
 * its arguments get on the node; the bytes (a dump) are the call's body. The node's side decides
 * the rest itself (only a database of that service is written: databases-move-work.ts).
 */

interface Write<Args extends unknown[]> {
  args: z.ZodType<Args>;
  run(node: NodeParts, args: Args, input: Readable): Promise<void>;
}

function write<Args extends unknown[]>(
  args: z.ZodType<Args>,
  run: (node: NodeParts, args: Args, input: Readable) => Promise<void>,
): Write<Args> {
  return { args, run };
}

export const NODE_WRITES = {
  'databases.prepare': write(z.tuple([serviceId]), (node, [id]) => node.databases.moves.prepare(id)),
  // a move's copy, or a backup's dump put back
  'databases.load': write(z.tuple([serviceId, databaseName]), (node, [id, name], input) =>
    node.databases.moves.load(id, name, input),
  ),
};

export type NodeWriteName = keyof typeof NODE_WRITES;
export type NodeWriteArgs<N extends NodeWriteName> = Parameters<(typeof NODE_WRITES)[N]['run']>[1];
