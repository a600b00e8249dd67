import type { Language } from '@panel247/contract/constants';
import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue/i18n.js';

/**
 * Schedules in cron syntax, read by maintained libraries: cron-parser (what pg-boss schedules
 * by) for the times, cronstrue for the words in es/en/ca. Only the five classic fields are taken
 * (minute hour day-of-month month day-of-week): no seconds, no `@reboot`, no nicknames.
 */

/** What a field may hold: digits, names of months and days, `*`, `/`, `,`, `-`. */
const FIELD = /^[0-9A-Za-z*/,-]{1,60}$/;

/** How far ahead the shortest interval is looked for: eight days, or a week of runs every 5 minutes. */
const LOOKAHEAD_SECONDS = 8 * 86_400;
const LOOKAHEAD_RUNS = 2016;

export type ScheduleProblem = 'cron.error.schedule' | 'cron.error.schedule_never';

/** The schedule's five fields joined by single spaces, or its problem. */
export function normalSchedule(value: string): { schedule: string } | { problem: ScheduleProblem } {
  const fields = value.trim().split(/\s+/);
  if (fields.length !== 5 || !fields.every((field) => FIELD.test(field))) return { problem: 'cron.error.schedule' };
  const schedule = fields.join(' ');
  try {
    const parsed = CronExpressionParser.parse(schedule, { strict: false, tz: 'UTC' });
    // a date that never comes (30 February) has no next run
    if (!parsed.hasNext()) return { problem: 'cron.error.schedule_never' };
  } catch {
    return { problem: 'cron.error.schedule' };
  }
  return { schedule };
}

/** The next `count` runs after `after` (epoch seconds), in the panel's time zone. */
export function nextRuns(schedule: string, timezone: string, after: number, count: number): number[] {
  const parsed = CronExpressionParser.parse(schedule, { tz: timezone, currentDate: new Date(after * 1000) });
  const runs: number[] = [];
  while (runs.length < count && parsed.hasNext()) runs.push(Math.floor(parsed.next().getTime() / 1000));
  return runs;
}

/**
 * The shortest gap between two runs (seconds) over the next eight days of runs (a weekly
 * schedule's two runs included), at most LOOKAHEAD_RUNS of them.
 */
export function shortestInterval(schedule: string, timezone: string, after: number): number {
  const parsed = CronExpressionParser.parse(schedule, { tz: timezone, currentDate: new Date(after * 1000) });
  const horizon = after + LOOKAHEAD_SECONDS;
  let shortest = Number.POSITIVE_INFINITY;
  let previous: number | undefined;
  for (let read = 0; read < LOOKAHEAD_RUNS && parsed.hasNext(); read++) {
    const run = Math.floor(parsed.next().getTime() / 1000);
    if (previous !== undefined) shortest = Math.min(shortest, run - previous);
    if (run > horizon) break;
    previous = run;
  }
  return shortest;
}

/** Whether the schedule has a run at this minute (`minute`: epoch seconds at the minute's start). */
export function runsAt(schedule: string, timezone: string, minute: number): boolean {
  return nextRuns(schedule, timezone, minute - 1, 1)[0] === minute;
}

/** The schedule in words, in the user's language, with 24-hour times. */
export function describeSchedule(schedule: string, language: Language): string {
  try {
    return cronstrue.toString(schedule, { locale: language, use24HourTimeFormat: true, verbose: false });
  } catch {
    return schedule;
  }
}
