import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import {
  copyOrMove,
  createFolder,
  download,
  extract,
  install,
  installTarget,
  list,
  type OperationIo,
  prepare,
  read,
  remove,
  renameEntry,
  restore,
  save,
  setMode,
  tarTree,
  usage,
  vacant,
  write,
  zip,
} from './operations.ts';
import type { WorkerMessage, WorkerRequest } from './protocol.ts';
import { Tree } from './tree.ts';
import { describeFailure } from './worker-errors.ts';

/**
 * The confined file worker: one process for one operation in one customer's tree. The panel
 * starts it (as root when it may switch users), it loads its code, then waits on its IPC channel
 * for the request, drops to the service's user and group before touching anything, does the one
 * operation and exits. Bytes come in on stdin and go out on stdout; the IPC channel carries the
 * request, a download's name and size, and the answer or the error.
 */

/**
 * The bytes out, on descriptor 1 opened as the socket Node's 'pipe' stdio is: unlike
 * process.stdout, ending it tells the panel the bytes are complete. Nothing else may write
 * there, so console output goes to stderr.
 */
const output = new Socket({ fd: 1, readable: false, writable: true });
console.log = console.error;
console.info = console.error;

type Operation = (tree: Tree, args: never, io: OperationIo) => Promise<unknown>;

const OPERATIONS: Record<WorkerRequest['op'], Operation> = {
  list,
  read,
  save,
  write,
  vacant,
  mkdir: createFolder,
  rename: renameEntry,
  remove,
  copyOrMove,
  chmod: setMode,
  download,
  zip,
  extract,
  usage,
  prepare,
  restore,
  tar: tarTree,
  install,
  installTarget,
};

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/** The capability sets of this process, from the kernel's own account. */
function capabilities(): string[] {
  const status = readFileSync('/proc/self/status', 'utf8');
  return ['CapPrm', 'CapEff', 'CapAmb'].map(
    (name) => new RegExp(`^${name}:\\s*([0-9a-f]+)$`, 'm').exec(status)?.[1] ?? '',
  );
}

/**
 * Becomes the service's user for good: no other group, no way back to root, no capability left
 * (a panel that is not root but holds capabilities would keep them across setuid).
 */
function becomeOwner(owner: WorkerRequest['owner']): void {
  if (!owner) return;
  if (process.getuid?.() !== 0) {
    if (process.getuid?.() === owner.uid) return;
    throw new Error(`the panel cannot act as uid ${owner.uid}: it does not run as root`);
  }
  process.setgroups?.([owner.gid]);
  process.setgid?.(owner.gid);
  process.setuid?.(owner.uid);
  if (process.getuid?.() !== owner.uid || process.getgid?.() !== owner.gid) throw new Error('setuid did not take');
  if (capabilities().some((set) => !/^0+$/.test(set))) throw new Error('capabilities left after setuid');
}

async function serve(request: WorkerRequest): Promise<void> {
  const home = await Tree.openHome(request.base);
  becomeOwner(request.owner);
  process.umask(0o022);
  const io: OperationIo = {
    input: process.stdin,
    output,
    announce: (meta) => void send({ type: 'meta', meta }),
  };
  const tree = await Tree.within(home, request.base, request.folder);
  try {
    const result = await OPERATIONS[request.op](tree, request.args as never, io);
    if (!output.writableEnded) await new Promise<void>((resolve) => output.end(resolve));
    await send({ type: 'done', result });
  } finally {
    await tree.close();
  }
}

let failing = false;
async function fail(error: unknown): Promise<never> {
  if (!failing) {
    failing = true;
    await send(describeFailure(error)).catch(() => undefined);
  }
  process.exit(1);
}

// Whatever goes wrong (a stream error no listener caught included) ends this process only.
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
// A listener that stays keeps the IPC channel, and so this process, alive until it exits on purpose
// (with `once`, Node lets go of the channel and the process could end before its answer is sent).
let served = false;
// An input the panel aborts before the operation reads it must not end the process as an uncaught
// 'error' (before it cleans up what it began): the operation finds it failed (`errored`) when it reads.
process.stdin.on('error', () => undefined);
process.on('message', (request: WorkerRequest | { type: 'abort' }) => {
  // The panel could not read the bytes it was sending: the operation fails on its input, and
  // cleans up what it began (a half-unpacked install).
  if ('type' in request) return void process.stdin.destroy(new Error('the panel could not read the input'));
  if (served) return;
  served = true;
  serve(request).then(() => process.exit(0), fail);
});
// A spare whose panel went away has nothing left to wait for.
process.on('disconnect', () => {
  if (!served) process.exit(0);
});
// Ready: the panel keeps a started worker waiting until an operation needs it.
void send({ type: 'ready' });
