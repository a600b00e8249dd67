import type { SyncOptions } from '../drivers/sync-options.ts';
import { type Command, type CommandContext, type CommandResult, defineCommand } from './command.ts';
import { type Cell, table } from './output.ts';

/** What one driver's sync found: a table of drift for people, the whole report for --json. */
export interface SyncOutcome {
  json: unknown;
  headers: string[];
  rows: Cell[][];
  /** One sentence: what was checked and repaired. */
  summary: string;
  /** How many drifts a real run could not repair (a dry run repairs nothing and fails nothing). */
  failed: number;
}

/** One daemon's reconciliation, run by its own `… sync` command and by `panel sync`. */
export interface SyncStep {
  /** The CLI group it belongs to: `panel <name> sync`. */
  name: 'users' | 'dns' | 'web' | 'mail' | 'ftp' | 'databases';
  run(ctx: CommandContext, options: SyncOptions): Promise<SyncOutcome>;
}

/** The RESULT cell of a drift row. */
export function repairResult(options: SyncOptions, drift: { repaired: boolean; error?: string }): string {
  if (options.dryRun) return 'not repaired (dry run)';
  return drift.repaired ? 'repaired' : `NOT REPAIRED${drift.error ? `: ${drift.error}` : ''}`;
}

export function renderOutcome(outcome: SyncOutcome): string {
  return outcome.rows.length > 0
    ? `${table(outcome.headers, outcome.rows)}\n${outcome.summary}`
    : `No drift. ${outcome.summary}`;
}

const DRY_RUN = { 'dry-run': { type: 'boolean' } } as const;

/** `panel <step> sync [--dry-run]`. */
export function syncCommand(step: SyncStep, summary: string): Command<unknown> {
  return defineCommand({
    name: 'sync',
    summary: `${summary} (--dry-run: report only)`,
    usage: '[--dry-run]',
    options: DRY_RUN,
    parse: ({ values }) => ({ dryRun: values['dry-run'] === true }),
    async run(ctx, options: SyncOptions): Promise<CommandResult> {
      const outcome = await step.run(ctx, options);
      return { json: outcome.json, text: renderOutcome(outcome), exitCode: outcome.failed > 0 ? 1 : 0 };
    },
  });
}

/** `panel sync [--dry-run]`: every step in turn; one that throws is reported and the rest still run. */
export function syncAllCommand(steps: SyncStep[]): Command<unknown> {
  return defineCommand({
    name: 'all',
    summary: `Every sync in turn (${steps.map((step) => `${step.name} sync`).join(', ')}): the daemons made to agree with the panel, drift reported (--dry-run: report only)`,
    usage: '[--dry-run]',
    options: DRY_RUN,
    parse: ({ values }) => ({ dryRun: values['dry-run'] === true }),
    async run(ctx, options: SyncOptions): Promise<CommandResult> {
      const json: Record<string, unknown> = { dryRun: options.dryRun };
      const texts: string[] = [];
      let failed = 0;
      for (const step of steps) {
        try {
          const outcome = await step.run(ctx, options);
          json[step.name] = outcome.json;
          texts.push(`== ${step.name} ==\n${renderOutcome(outcome)}`);
          failed += outcome.failed;
        } catch (error) {
          const message = (error as Error).message;
          json[step.name] = { error: message };
          texts.push(`== ${step.name} ==\nFAILED: ${message}`);
          failed += 1;
        }
      }
      return { json, text: texts.join('\n\n'), exitCode: failed > 0 ? 1 : 0 };
    },
  });
}
