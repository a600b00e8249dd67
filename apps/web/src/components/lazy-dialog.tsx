import { type ComponentType, useEffect, useState } from 'react';
import { notifyError } from '../lib/notify';
import { DelayedSpinner } from './delayed-spinner';

/** How long after a view's first render its dialogs' code may start loading on its own. */
export const DIALOG_PRELOAD_DELAY_MS = 2000;

/**
 * A dialog whose code loads when it is first opened, or once the browser is idle a while after the
 * view's first render, instead of with the view: a view's first visit then fetches, parses and runs
 * only what it shows (the DNS and mail views each brought five or more dialogs in their first load).
 *
 * `closed` names the props that keep the dialog closed (`{ opened: false }`, `{ record: null }`):
 * the dialog is open when any of them differs. The loaded dialog is rendered closed once before it
 * is rendered open, because Mantine's Modal notes the element to give focus back to when `opened`
 * changes, not when it mounts already open. While an opened dialog's code loads, the page's delayed
 * spinner shows in the middle of the screen. If its code cannot be loaded (the network is gone, a
 * new release replaced the file), the error toast says so and the dialog is closed, to be tried
 * again on the next open.
 */
export function lazyDialog<P extends { onClose: () => void }>(
  load: () => Promise<ComponentType<P>>,
  closed: Partial<P>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const closedEntries = Object.entries(closed) as [keyof P, unknown][];
  const isOpen = (props: P) => closedEntries.some(([key, value]) => props[key] !== value);

  function LazyDialog(props: P) {
    const open = isOpen(props);
    const [dialog, setDialog] = useState(() => loaded);
    // rendered closed until the render after the one that mounted it (see above)
    const [mounted, setMounted] = useState(false);
    const { onClose } = props;

    useEffect(() => {
      if (!open || dialog) return;
      let current = true;
      preload().then(
        (component) => current && setDialog(() => component),
        (error: unknown) => {
          if (!current) return;
          notifyError(error);
          onClose();
        },
      );
      return () => {
        current = false;
      };
    }, [open, dialog, onClose]);
    useEffect(() => whenIdleAfter(DIALOG_PRELOAD_DELAY_MS, () => void preload().catch(() => undefined)), []);
    useEffect(() => {
      if (dialog) setMounted(true);
    }, [dialog]);

    // opened on a slow network: the page's spinner, after the same 400 ms as any other load
    if (!dialog) return open ? <DelayedSpinner overlay /> : null;
    const Dialog = dialog;
    return <Dialog {...props} {...(mounted ? {} : closed)} />;
  }
  return LazyDialog;
}

/** Runs `task` once the browser is idle, `delay` ms from now at the earliest; returns the cancel. */
function whenIdleAfter(delay: number, task: () => void): () => void {
  let idle: number | undefined;
  const timer = window.setTimeout(() => {
    if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(task, { timeout: delay });
    else task();
  }, delay);
  return () => {
    window.clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}
