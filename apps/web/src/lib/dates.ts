import { displayHints } from './display-hints';

/** How much of a moment a date shows: the day, down to the minute, or down to the second (logs). */
export type DateDetail = 'day' | 'minute' | 'second';

const OPTIONS: Record<DateDetail, Intl.DateTimeFormatOptions> = {
  day: { dateStyle: 'medium' },
  minute: { dateStyle: 'medium', timeStyle: 'short' },
  second: { dateStyle: 'medium', timeStyle: 'medium' },
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Epoch seconds as the language's date. Building a formatter costs milliseconds (a CPU profile of
 * the DNS view's first render found 40 ms spent building one at each render of its history), so
 * each language and detail is built once and kept.
 */
export function formatEpoch(seconds: number, language: string, detail: DateDetail = 'minute'): string {
  // in the browser its own zone; on the server the visitor's (display-hints.ts)
  const timeZone = displayHints.timeZone;
  const key = `${language}|${detail}|${timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, { ...OPTIONS[detail], timeZone });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(seconds * 1000));
}
