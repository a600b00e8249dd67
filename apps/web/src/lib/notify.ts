import { TOAST_MS } from '@panel247/contract/constants';
import { ApiError } from './api-client';
import { i18next } from './i18n';

/** The text to show for a failed call: server text, or the translated '404' / '500' / 'error'. */
export function translateError(error: unknown): string {
  const message = error instanceof ApiError ? error.message : 'error';
  if (message === '404') return i18next.t('errors.not_found');
  if (message === '500') return i18next.t('errors.internal');
  if (message === 'error') return i18next.t('errors.generic');
  return i18next.t(message, { defaultValue: message });
}

type ShowOptions = { color: string; title: string; message: string; autoClose: number };

/**
 * Toasts load on first use: the notifications package stays out of the login route's budget.
 * Its store keeps a toast until the (lazily mounted) container shows it.
 */
let toastsUsed = false;
const toastListeners = new Set<() => void>();

export function subscribeToasts(listener: () => void): () => void {
  toastListeners.add(listener);
  return () => toastListeners.delete(listener);
}

/** Whether any toast was asked for yet (then the container gets mounted). */
export function toastsRequested(): boolean {
  return toastsUsed;
}

function show(options: ShowOptions): void {
  if (!toastsUsed) {
    toastsUsed = true;
    for (const listener of toastListeners) listener();
  }
  void import('@mantine/notifications').then(({ notifications }) =>
    notifications.show({ ...options, closeButtonProps: { 'aria-label': i18next.t('main.close') } }),
  );
}

export function notifyError(error: unknown): void {
  if (error instanceof ApiError && error.sessionLost) return; // the session-loss modal says it
  show({
    color: 'red',
    title: i18next.t('main.error'),
    message: translateError(error),
    autoClose: TOAST_MS,
  });
}

export function notifyErrorText(key: string): void {
  notifyErrorMessage(i18next.t(key));
}

/** An error already in the user's language (a background job's failure, worded by the server). */
export function notifyErrorMessage(message: string): void {
  show({ color: 'red', title: i18next.t('main.error'), message, autoClose: TOAST_MS });
}

/** Success toast: titled 'Success', with system.info[0] or the generic text. */
export function notifySuccess(info?: readonly string[]): void {
  show({
    color: 'green',
    title: i18next.t('main.success'),
    message: info?.[0] || i18next.t('main.operation_done'),
    autoClose: TOAST_MS,
  });
}

/**
 * Runs a confirmed call (a delete, a toggle): on success its toast and `onDone` (the dialog
 * closes); on failure the error toast, and the dialog stays open to try again.
 */
export async function notifyCall(call: () => Promise<readonly string[] | undefined>, onDone: () => void) {
  try {
    notifySuccess(await call());
    onDone();
  } catch (error) {
    notifyError(error);
  }
}
