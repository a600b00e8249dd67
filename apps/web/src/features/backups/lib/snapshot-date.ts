/** A snapshot's time (epoch seconds) as the list and the restore dialog name it. */
export function snapshotDate(seconds: number, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(seconds * 1000),
  );
}
