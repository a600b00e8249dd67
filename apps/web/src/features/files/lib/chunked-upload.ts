import { UPLOAD_CHUNK_BYTES } from '@panel247/contract/files';
import { ApiError } from '../../../lib/api-client';
import { getUploadStatus, type UploadDestination, uploadChunk } from '../api/upload-chunk';

export interface UploadOptions {
  signal?: AbortSignal;
  /** Bytes the server holds so far, after each chunk. */
  onProgress?: (received: number) => void;
  /** Bytes of the file on their way, as a chunk is sent (between the server's counts). */
  onSending?: (sent: number) => void;
  /** Bytes per chunk; the contract's limit unless a test wants smaller ones. */
  chunkBytes?: number;
  /** Failures in a row tolerated before the upload gives up. */
  retries?: number;
  /** The pause before the `attempt`-th retry (1, 2, …); it must end early when `signal` aborts. */
  pause?: (attempt: number, signal?: AbortSignal) => Promise<void>;
}

const DEFAULT_RETRIES = 4;

/** Half a second, then one, two, four: long enough for a proxy or the network to come back. */
export function backoffPause(attempt: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, 500 * 2 ** (attempt - 1));
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Answers that come back the same however often the chunk is sent. */
const FINAL_STATUSES = new Set([403, 404, 507]);

/**
 * Whether trying again can help. A cancel, a lost session, a refused name or folder (field
 * errors), a missing right, a missing folder or a full web space (507) will answer the same the
 * next time.
 */
function worthRetrying(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.sessionLost || error.fieldErrors.length > 0) return false;
  return !FINAL_STATUSES.has(error.status);
}

/** What the server holds; an upload it never heard of (its first chunk lost) starts over. */
async function resumeStatus(destination: UploadDestination, signal?: AbortSignal) {
  try {
    return await getUploadStatus(destination, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { received: 0, done: false };
    throw error;
  }
}

/**
 * Sends `file` to the server in chunks of at most `chunkBytes`, each starting where the server
 * says it holds the file up to. When a chunk fails, it waits a little, asks the server how much
 * arrived, and goes on from there: a broken connection costs one chunk, not the whole file. A
 * zero-byte file is a single empty chunk. Throws the last error once the retries are used up,
 * or at once when retrying cannot help.
 */
export async function uploadFile(file: Blob, destination: UploadDestination, options: UploadOptions = {}) {
  const { signal, onProgress, onSending, chunkBytes = UPLOAD_CHUNK_BYTES, retries = DEFAULT_RETRIES } = options;
  const pause = options.pause ?? backoffPause;
  const size = file.size;
  let offset = 0;
  let failures = 0;
  let askWhereToResume = false;
  for (;;) {
    try {
      if (askWhereToResume) {
        const status = await resumeStatus(destination, signal);
        onProgress?.(status.received);
        if (status.done) return;
        offset = status.received;
        askWhereToResume = false;
      }
      const end = Math.min(size, offset + chunkBytes);
      const start = offset;
      const answer = await uploadChunk(
        destination,
        { bytes: file.slice(offset, end), offset, size },
        signal,
        onSending && ((sent) => onSending(start + sent)),
      );
      onProgress?.(answer.received);
      if (answer.done) return;
      // a server that holds no more than before (or more than the file) would loop for ever
      if (answer.received <= offset || answer.received > size) throw new ApiError('error', 500, null);
      offset = answer.received;
      failures = 0;
    } catch (error) {
      if (!worthRetrying(error) || failures >= retries) throw error;
      failures++;
      await pause(failures, signal);
      askWhereToResume = true;
    }
  }
}
