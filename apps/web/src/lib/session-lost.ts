import { useSyncExternalStore } from 'react';

/** Whether the session-loss modal is open. Any part of the app may signal it; one modal shows it. */
let open = false;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

let expectingEnd = false;

/**
 * While this tab ends its own session (logout, password change) the realtime socket's
 * session.ended is expected, not a "loss". A 101 answer to a call still opens the modal.
 */
export function expectSessionEnd(value: boolean): void {
  expectingEnd = value;
}

export function isSessionEndExpected(): boolean {
  return expectingEnd;
}

export function signalSessionLost(): void {
  if (open) return;
  open = true;
  emit();
}

export function clearSessionLost(): void {
  if (!open) return;
  open = false;
  emit();
}

export function isSessionLost(): boolean {
  return open;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSessionLost(): boolean {
  return useSyncExternalStore(subscribe, isSessionLost, isSessionLost);
}
