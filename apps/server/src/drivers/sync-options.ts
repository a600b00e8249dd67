/** What every driver's `sync` (the CLI's `… sync` commands) is told: `dryRun` reports drift and changes nothing. */
export interface SyncOptions {
  dryRun: boolean;
}
