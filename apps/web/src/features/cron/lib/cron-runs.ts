import type { CronRun, CronTask } from '@panel247/contract/cron';

export type CronOutcome = CronRun['outcome'];

/** The badge colour of each outcome: a timeout is a failure the limit caused, not the script. */
export const OUTCOME_COLORS: Record<CronOutcome, string> = {
  ok: 'green',
  failed: 'red',
  timeout: 'orange',
  running: 'blue',
};

/** Whether some task is running now: the list is then asked again until it ends. */
export function anyTaskRunning(tasks: readonly CronTask[]): boolean {
  return tasks.some((task) => task.lastRun?.outcome === 'running');
}

export function anyRunRunning(runs: readonly CronRun[]): boolean {
  return runs.some((run) => run.outcome === 'running');
}

/** How long a run took, in seconds; null while it runs. */
export function runSeconds(run: CronRun): number | null {
  if (run.outcome === 'running' || run.finishedAt === 0) return null;
  return Math.max(0, run.finishedAt - run.startedAt);
}

const unitFormatters = new Map<string, Intl.NumberFormat>();

function unit(language: string, name: 'second' | 'minute' | 'hour', value: number): string {
  const key = `${language}|${name}`;
  let formatter = unitFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'short' });
    unitFormatters.set(key, formatter);
  }
  return formatter.format(value);
}

/** A duration in the language's short units, its two largest parts: "45 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(seconds: number, language: string): string {
  const whole = Math.round(seconds);
  if (whole < 60) return unit(language, 'second', whole);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) {
    const rest = whole % 60;
    return rest
      ? `${unit(language, 'minute', minutes)} ${unit(language, 'second', rest)}`
      : unit(language, 'minute', minutes);
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${unit(language, 'hour', hours)} ${unit(language, 'minute', rest)}` : unit(language, 'hour', hours);
}
