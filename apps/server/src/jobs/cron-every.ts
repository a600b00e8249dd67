/**
 * A period in seconds (how the panel's settings say how often) as the cron expression the job
 * engines schedule by. Cron counts minutes, hours and days on a clock, so the period is rounded
 * down to one that divides its unit: 45 minutes runs every 30, 5 hours every 4, anything of a day
 * or more once a day at 00:00 UTC. Under a minute is every minute. 0 or less: never (undefined).
 */
export function cronEvery(seconds: number): string | undefined {
  if (seconds <= 0) return undefined;
  const minutes = Math.max(1, Math.floor(seconds / 60));
  if (minutes < 60) return minutes === 1 ? '* * * * *' : `*/${divisorAtMost(60, minutes)} * * * *`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '0 * * * *' : `0 */${divisorAtMost(24, hours)} * * *`;
  return '0 0 * * *';
}

/** The largest divisor of `whole` that is at most `most`. */
function divisorAtMost(whole: number, most: number): number {
  for (let divisor = most; divisor > 1; divisor -= 1) if (whole % divisor === 0) return divisor;
  return 1;
}

/** A daily time "HH:MM" (UTC) as a cron expression. */
export function cronDailyAt(hhmm: string): string {
  const [hours, minutes] = hhmm.split(':').map((part) => Number.parseInt(part, 10));
  return `${minutes} ${hours} * * *`;
}
