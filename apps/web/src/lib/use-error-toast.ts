import { useEffect } from 'react';
import { notifyError } from './notify';

/** Shows a query's error once as a toast when it fails (a list that could not load). */
export function useErrorToast(error: unknown, show = true): void {
  useEffect(() => {
    if (error && show) notifyError(error);
  }, [error, show]);
}
