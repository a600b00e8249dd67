import type { Readable } from 'node:stream';
import { isHostName } from '@panel247/contract/dns-rules';
import { isLocalPart } from '@panel247/contract/mail-rules';
import { z } from 'zod';
import type { NodeParts } from '../composition/node-parts.ts';

/**
 * What a panel instance apart from its server reads from that server through its agent: the
 * figures and files the server alone holds (a mailbox's size, a database's, a site's error log,
 * a database's dump). Each read is named once here, with the checks its arguments get on the
 * node before they reach a driver; the node channel serves exactly these, and the instance's
 * node parts call them (remote-node-parts.ts).
 */

const domain = z.string().max(253).refine(isHostName);
const mailbox = z.object({ domain, localPart: z.string().max(64).refine(isLocalPart) }).strict();
/** The panel's database names: the domain's letters and digits, `_N` (an optional provider prefix). */
export const databaseName = z.string().regex(/^[A-Za-z0-9_]{1,64}$/);
export const serviceId = z.number().int().positive();

interface Read<Args extends unknown[], Result> {
  args: z.ZodType<Args>;
  run(node: NodeParts, args: Args): Promise<Result>;
}

function read<Args extends unknown[], Result>(
  args: z.ZodType<Args>,
  run: (node: NodeParts, args: Args) => Promise<Result>,
): Read<Args, Result> {
  return { args, run };
}

/** Reads answered as JSON. */
export const NODE_READS = {
  'mail.usage': read(z.tuple([mailbox]), (node, [box]) => node.mail.driver.usage(box)),
  'mail.foreignFilter': read(z.tuple([mailbox]), (node, [box]) => node.mail.driver.foreignFilter(box)),
  'mail.spamMarked': read(
    z.tuple([z.array(mailbox).max(10_000), z.number().int().min(1).max(366)]),
    (node, [boxes, days]) => node.mail.driver.spamMarked(boxes, days),
  ),
  // A Map does not survive JSON: it travels as its entries.
  'databases.usage': read(z.tuple([z.array(databaseName).max(10_000)]), async (node, [names]) => [
    ...(await node.databases.driver.usage(names)),
  ]),
  'web.errorLog': read(z.tuple([serviceId]), (node, [id]) => node.web.driver.errorLog(id)),
};

/** Reads answered as a byte stream. */
export const NODE_READ_STREAMS = {
  'databases.dump': read(
    z.tuple([databaseName]),
    (node, [name]): Promise<Readable> => node.databases.driver.dump(name),
  ),
};

export type NodeReadName = keyof typeof NODE_READS;
export type NodeReadStreamName = keyof typeof NODE_READ_STREAMS;
export type NodeReadArgs<N extends NodeReadName> = Parameters<(typeof NODE_READS)[N]['run']>[1];
export type NodeReadResult<N extends NodeReadName> = Awaited<ReturnType<(typeof NODE_READS)[N]['run']>>;
export type NodeReadStreamArgs<N extends NodeReadStreamName> = Parameters<(typeof NODE_READ_STREAMS)[N]['run']>[1];
