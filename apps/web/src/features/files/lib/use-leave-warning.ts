import { useEffect } from 'react';

/**
 * While `active` (unsaved text, uploads on their way), closing or reloading the tab asks first:
 * the browser's own question, since leaving would lose them.
 */
export function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
