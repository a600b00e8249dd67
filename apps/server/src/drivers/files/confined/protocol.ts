import type { Readable } from 'node:stream';
import type { FieldError, MessageParams } from '../../../errors.ts';

/** Who a confined operation runs as: a hosting service's own user and group. */
export interface FileOwner {
  uid: number;
  gid: number;
}

/** The one operation a worker process does, sent over its IPC channel. */
export interface WorkerRequest {
  op:
    | 'list'
    | 'read'
    | 'save'
    | 'write'
    | 'vacant'
    | 'mkdir'
    | 'rename'
    | 'remove'
    | 'copyOrMove'
    | 'chmod'
    | 'download'
    | 'zip'
    | 'extract'
    | 'usage'
    | 'prepare'
    | 'restore'
    | 'tar'
    | 'install'
    | 'installTarget';
  /** The home (absolute, chosen by the panel): opened without following a link. */
  base: string;
  /** Names below it: the root of this operation (an FTP account's folder), walked without links. */
  folder: string[];
  args: Record<string, unknown>;
  /** Absent: the worker keeps the panel's own rights (a panel without service users). */
  owner?: FileOwner | undefined;
}

/** How an operation failed (worker-errors.ts turns errors into these and back). */
export type WorkerFailure =
  | { type: 'error'; kind: 'FieldErrors'; fields: FieldError[] }
  | { type: 'error'; kind: 'not_found' | 'conflict' | 'quota'; key: string; params: MessageParams }
  | { type: 'error'; kind: 'archive'; message: string }
  | { type: 'error'; kind: 'daemon'; key: string; detail: string; params: MessageParams }
  | { type: 'error'; kind: 'system'; code: string | undefined; message: string };

/** What a worker says, in order: ready, then perhaps meta (before output bytes), then done or error. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'meta'; meta: Record<string, unknown> }
  | { type: 'done'; result: unknown }
  | WorkerFailure;

/**
 * Where the operations in customers' homes run: this machine's confined workers
 * (ConfinedWorkers), or, for a panel instance apart from its server, that server's agent through
 * the node channel (node-channel/remote-file-workers.ts), which runs them in its own workers.
 */
export interface FileWorkers {
  /**
   * Whether the service's home (`<root>/<domain>`) is on this machine. When not, its server's
   * agent makes it when missing (before an operation in it) and nothing here looks at the disk.
   */
  holdsHome(domain: string): Promise<boolean>;
  /**
   * Runs an operation to its end and answers its result. `input` makes the bytes the operation
   * reads; it is called once the operation can take them, so nothing is read (or fails) unheard.
   */
  call<T>(request: WorkerRequest, input?: () => Readable): Promise<T>;
  /**
   * Starts an operation that sends bytes: answers what it announced (a download's name and size)
   * and its bytes. The stream fails when the operation does; destroying it ends the operation.
   */
  stream(request: WorkerRequest): Promise<{ meta: Record<string, unknown>; output: Readable }>;
  close(): Promise<void>;
}
