import { open } from 'node:fs/promises';
import type { ErrorLogLine } from '@panel247/contract/hosting';
import { replaceControlCharacters } from '@panel247/contract/text-rules';

/** How much of the end of each log is read: enough for the lines shown, bounded whatever the log's size. */
const TAIL_BYTES = 64 * 1024;
/** Lines shown in all, the most recent ones. */
export const ERROR_LOG_LINES = 200;
const LINE_CHARS = 2000;

const MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};
/** nginx: `2026/11/24 10:00:00 [error] …`. */
const NGINX_TIME = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) /;
/** PHP: `[24-Nov-2026 10:00:00 UTC] PHP Warning: …`. */
const PHP_TIME = /^\[(\d{2})-([A-Z][a-z]{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})(?: [^\]]*)?\] /;

/**
 * Both daemons write their server's local time (UTC on a typical server); the times are only used
 * to interleave the two logs, so reading them as UTC keeps the order whatever the zone.
 */
function timeOf(source: ErrorLogLine['source'], line: string): number | null {
  const match = (source === 'nginx' ? NGINX_TIME : PHP_TIME).exec(line);
  if (!match) return null;
  const [a = '', b = '', c = '', hours = '', minutes = '', seconds = ''] = match.slice(1);
  const time = (year: string, month: number | undefined, day: string) =>
    month === undefined ? null : Date.UTC(+year, month, +day, +hours, +minutes, +seconds);
  // nginx: year/month/day; PHP: day-Mon-year.
  return source === 'nginx' ? time(a, +b - 1, c) : time(c, MONTHS[b], a);
}

/** The last complete lines of a file, read from its end only; a missing file has none. */
async function tailLines(file: string): Promise<string[]> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!handle) return [];
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    // A read that starts mid-file starts mid-line: that first piece is not a whole line.
    if (start > 0) lines.shift();
    return lines.filter((line) => line.trim() !== '');
  } finally {
    await handle.close();
  }
}

/**
 * The tail of a service's nginx and PHP error logs, interleaved by time, oldest first. Lines with
 * no time of their own (a PHP stack trace's continuation) stay after the line before them. Control
 * characters are replaced, so nothing a request wrote into a log reaches the page as markup or
 * terminal codes (the page shows text, never HTML).
 */
export async function readErrorLog(files: { nginx: string; php: string }): Promise<ErrorLogLine[]> {
  const entries: { source: ErrorLogLine['source']; line: string; time: number; order: number }[] = [];
  let order = 0;
  for (const source of ['nginx', 'php'] as const) {
    let time = 0;
    for (const raw of await tailLines(files[source])) {
      time = timeOf(source, raw) ?? time;
      // Lines are split at LF, a final CR goes and tabs become spaces; any other control character
      // (a terminal code) shows as U+FFFD.
      const line = replaceControlCharacters(raw.replace(/\r$/, '').replace(/\t/g, ' '), '\uFFFD').slice(0, LINE_CHARS);
      entries.push({ source, line, time, order: order++ });
    }
  }
  entries.sort((a, b) => a.time - b.time || a.order - b.order);
  return entries.slice(-ERROR_LOG_LINES).map(({ source, line }) => ({ source, line }));
}
