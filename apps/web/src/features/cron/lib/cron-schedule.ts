/**
 * A schedule as typed (five cron fields) and the presets the task dialog offers: the server reads
 * and checks the schedule; these only tidy what is sent and tell a preset when it is typed.
 */

export interface CronPreset {
  /** Names its button's text: `cron.preset.{id}`. */
  id: 'every_5_minutes' | 'hourly' | 'daily' | 'weekly' | 'monthly';
  schedule: string;
  /** How often it runs, in minutes: a preset more frequent than the plan allows is not offered. */
  everyMinutes: number;
}

export const CRON_PRESETS: readonly CronPreset[] = [
  { id: 'every_5_minutes', schedule: '*/5 * * * *', everyMinutes: 5 },
  { id: 'hourly', schedule: '0 * * * *', everyMinutes: 60 },
  { id: 'daily', schedule: '0 3 * * *', everyMinutes: 24 * 60 },
  { id: 'weekly', schedule: '0 3 * * 1', everyMinutes: 7 * 24 * 60 },
  { id: 'monthly', schedule: '0 3 1 * *', everyMinutes: 28 * 24 * 60 },
];

/** The fields separated by one space, without spaces around: "0  3 * * *  " and "0 3 * * *" are one schedule. */
export function normalizeSchedule(schedule: string): string {
  return schedule.trim().split(/\s+/).join(' ');
}

/** The preset a typed schedule is, whatever its spacing, or null. */
export function presetOf(schedule: string): CronPreset['id'] | null {
  const normalized = normalizeSchedule(schedule);
  return CRON_PRESETS.find((preset) => preset.schedule === normalized)?.id ?? null;
}

/** Whether the plan lets a preset run as often as it does. */
export function presetAllowed(preset: CronPreset, minIntervalMinutes: number): boolean {
  return preset.everyMinutes >= minIntervalMinutes;
}
