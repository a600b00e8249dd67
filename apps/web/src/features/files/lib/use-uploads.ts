import { isFileName } from '@panel247/contract/files';
import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadFile } from './chunked-upload';
import type { FilesRoot } from './files-root';
import { useLeaveWarning } from './use-leave-warning';

export type UploadState = 'queued' | 'sending' | 'done' | 'failed' | 'cancelled';

/** One file the user asked to upload, as the upload list shows it. */
export interface UploadItem {
  key: number;
  name: string;
  size: number;
  /** Bytes the server holds. */
  received: number;
  state: UploadState;
  /** Why it failed: an ApiError, or the key of a text ('files.invalid_name'). */
  error?: unknown;
}

interface Job {
  key: number;
  file: File;
  root: FilesRoot;
  folder: string;
}

let nextKey = 1;

/**
 * The uploads of a view: files are sent one after the other (one connection's bandwidth for each
 * in turn, and a clear order in the list), each cancellable, and `onSettled` runs when the queue
 * runs dry so the listing can show what arrived. Leaving the view cancels what is left; closing
 * the tab meanwhile asks first.
 */
export function useUploads(onSettled: () => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useRef<Job[]>([]);
  const running = useRef<{ key: number; controller: AbortController } | null>(null);
  const settled = useRef(onSettled);
  settled.current = onSettled;

  const update = useCallback((key: number, change: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const drain = useCallback(async () => {
    if (running.current) return;
    for (let job = queue.current.shift(); job; job = queue.current.shift()) {
      const controller = new AbortController();
      running.current = { key: job.key, controller };
      const key = job.key;
      update(key, { state: 'sending' });
      try {
        await uploadFile(
          job.file,
          { root: job.root, folder: job.folder, name: job.file.name },
          {
            signal: controller.signal,
            onProgress: (received) => update(key, { received }),
            // an 8 MB chunk takes a while on a slow line: the bar moves as its bytes go
            onSending: (sent) => update(key, { received: sent }),
          },
        );
        update(key, { state: 'done', received: job.file.size });
      } catch (error) {
        update(key, controller.signal.aborted ? { state: 'cancelled' } : { state: 'failed', error });
      }
      running.current = null;
    }
    settled.current();
  }, [update]);

  /** Queues `files` for `folder` of `root` (the folder shown when they were picked). */
  const add = useCallback(
    (files: readonly File[], root: FilesRoot, folder: string) => {
      const added: UploadItem[] = files.map((file) => {
        const key = nextKey++;
        const base = { key, name: file.name, size: file.size, received: 0 };
        // a name the server would refuse is not sent at all
        if (!isFileName(file.name)) return { ...base, state: 'failed', error: 'files.invalid_name' };
        queue.current.push({ key, file, root, folder });
        return { ...base, state: 'queued' };
      });
      setItems((list) => [...list, ...added]);
      void drain();
    },
    [drain],
  );

  const cancel = useCallback(
    (key: number) => {
      if (running.current?.key === key) {
        running.current.controller.abort();
        return;
      }
      queue.current = queue.current.filter((job) => job.key !== key);
      update(key, { state: 'cancelled' });
    },
    [update],
  );

  /** Takes the finished, failed and cancelled ones off the list. */
  const clearFinished = useCallback(() => {
    setItems((list) => list.filter((item) => item.state === 'queued' || item.state === 'sending'));
  }, []);

  useEffect(
    () => () => {
      queue.current = [];
      running.current?.controller.abort();
    },
    [],
  );

  useLeaveWarning(items.some((item) => item.state === 'queued' || item.state === 'sending'));

  return { items, add, cancel, clearFinished };
}
