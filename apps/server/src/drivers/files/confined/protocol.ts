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

/** What a worker says, in order: ready, then perhaps meta (before output bytes), then done or error. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'meta'; meta: Record<string, unknown> }
  | { type: 'done'; result: unknown }
  | { type: 'error'; kind: 'FieldErrors'; fields: FieldError[] }
  | { type: 'error'; kind: 'not_found' | 'conflict' | 'quota'; key: string; params: MessageParams }
  | { type: 'error'; kind: 'archive'; message: string }
  | { type: 'error'; kind: 'system'; code: string | undefined; message: string };
