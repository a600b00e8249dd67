import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActivityNotes } from './activity-notes.ts';

/**
 * The activity notes of the call now running, for what happens deep in it without the actor in
 * hand: a registry's transaction ids are noted by the EPP session that sent the command.
 */
const current = new AsyncLocalStorage<ActivityNotes>();

export function withActivityNotes<T>(notes: ActivityNotes | undefined, run: () => Promise<T>): Promise<T> {
  return notes ? current.run(notes, run) : run();
}

/** A command a registry answered during the call: kept with the call's entry in the activity log. */
export function noteRegistryTransaction(transaction: {
  registry: string;
  command: string;
  code: number;
  clTRID: string;
  svTRID: string;
}): void {
  const notes = current.getStore();
  if (!notes) return;
  notes.registry ??= [];
  notes.registry.push(
    `${transaction.registry} ${transaction.command} ${transaction.code} ${transaction.clTRID} ${transaction.svTRID}`,
  );
}
