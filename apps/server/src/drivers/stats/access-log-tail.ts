import { constants, type FileHandle, open, rename, stat } from 'node:fs/promises';

/** Where the reading of a service's access log stopped: the file (by inode) and the byte after its last whole line. */
export interface TailState {
  inode: string;
  offset: number;
}

/** How much is read at once: the lines of one chunk are handed over before the next is read. */
const CHUNK_BYTES = 4 * 1024 * 1024;

async function openLog(file: string): Promise<FileHandle | null> {
  return open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/**
 * Hands `take` the whole lines of `handle` from `offset` on, a chunk at a time (a line still being
 * written stays for the next read); answers where it stopped.
 */
async function readFrom(handle: FileHandle, offset: number, take: (lines: string) => Promise<void>): Promise<number> {
  let position = offset;
  let carry = Buffer.alloc(0);
  const buffer = Buffer.alloc(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position + carry.length);
    if (bytesRead === 0) break;
    const data = Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
    const end = data.lastIndexOf(0x0a);
    if (end === -1) {
      // one line longer than a chunk: nginx writes no such line; skipped whole when it ends
      carry = data.length > 4 * CHUNK_BYTES ? Buffer.alloc(0) : data;
      if (carry.length === 0) position += data.length;
      continue;
    }
    await take(data.subarray(0, end + 1).toString('utf8'));
    position += end + 1;
    carry = data.subarray(end + 1);
  }
  return position;
}

/**
 * The lines a service's access log gained since `state`, handed to `take`. The panel rotates the
 * log itself (`rotated` below: renamed to `.1`, nginx told to reopen), so the file it stopped in
 * may now be `.1`, still receiving the lines nginx wrote before it reopened: those are read first,
 * then the new file from its start. A file not seen before (another tool rotated it, or it was
 * truncated) is read from its start. The files are opened without following a link (the folder is
 * the panel's, but a log is never read through one).
 */
export async function tailAccessLog(
  file: string,
  state: TailState | null,
  take: (lines: string) => Promise<void>,
): Promise<TailState | null> {
  const current = await openLog(file);
  if (!current) return state;
  try {
    const info = await current.stat({ bigint: true });
    const inode = String(info.ino);
    let offset = 0;
    if (state?.inode === inode) offset = Number(info.size) >= state.offset ? state.offset : 0;
    else if (state) {
      const previous = await openLog(`${file}.1`);
      if (previous) {
        try {
          if (String((await previous.stat({ bigint: true })).ino) === state.inode)
            await readFrom(previous, state.offset, take);
        } finally {
          await previous.close();
        }
      }
    }
    return { inode, offset: await readFrom(current, offset, take) };
  } finally {
    await current.close();
  }
}

/**
 * Renames the log to `.1` (replacing the one before, read whole by then) when it was read past
 * `rotateBytes`; answers whether it did, so the caller has the web server reopen its logs. The
 * lines nginx writes until it reopens land in `.1`, which `tailAccessLog` finishes by its inode.
 */
export async function rotateAccessLog(file: string, readUpTo: number, rotateBytes: number): Promise<boolean> {
  if (readUpTo < rotateBytes) return false;
  const size = (await stat(file).catch(() => null))?.size ?? 0;
  if (size < rotateBytes) return false;
  await rename(file, `${file}.1`);
  return true;
}
