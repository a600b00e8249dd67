import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A server of its own on this machine: a network namespace with its own address. */
export interface NodeNamespace {
  name: string;
  /** The node's address (inside), e.g. 10.248.3.2. */
  address: string;
  /** The host's end of the link, e.g. 10.248.3.1: what the node reaches the control plane at. */
  hostAddress: string;
  /** A command line that runs `command` inside the namespace (`ip netns exec`). */
  wrap(command: string, args: string[]): { command: string; args: string[] };
  destroy(): Promise<void>;
}

const NAME = /^[a-z0-9-]{1,12}$/;

/**
 * `ip netns add`, a veth pair with 10.248.<slot>.1/30 on the host's side and .2 inside, loopback
 * up (DAEMONS.md, "Several servers on one machine"). Root only. A namespace left by an earlier
 * run of the same name is removed first.
 */
export async function createNodeNamespace(name: string, slot: number): Promise<NodeNamespace> {
  if (!NAME.test(name) || !Number.isInteger(slot) || slot < 1 || slot > 250)
    throw new Error(`bad namespace ${name}/${slot}`);
  const hostVeth = `${name}-h`;
  const nodeVeth = `${name}-n`;
  const hostAddress = `10.248.${slot}.1`;
  const address = `10.248.${slot}.2`;
  const ip = (args: string[]) => execFileAsync('ip', args);
  const destroy = async () => {
    await ip(['netns', 'delete', name]).catch(() => undefined);
    await ip(['link', 'delete', hostVeth]).catch(() => undefined);
  };
  await destroy();
  await ip(['netns', 'add', name]);
  try {
    await ip(['link', 'add', hostVeth, 'type', 'veth', 'peer', 'name', nodeVeth]);
    await ip(['link', 'set', nodeVeth, 'netns', name]);
    await ip(['addr', 'add', `${hostAddress}/30`, 'dev', hostVeth]);
    await ip(['link', 'set', hostVeth, 'up']);
    const inside = (args: string[]) => ip(['netns', 'exec', name, 'ip', ...args]);
    await inside(['addr', 'add', `${address}/30`, 'dev', nodeVeth]);
    await inside(['link', 'set', nodeVeth, 'up']);
    await inside(['link', 'set', 'lo', 'up']);
  } catch (error) {
    await destroy();
    throw error;
  }
  return {
    name,
    address,
    hostAddress,
    wrap: (command, args) => ({ command: 'ip', args: ['netns', 'exec', name, command, ...args] }),
    destroy,
  };
}
