import { useEffect } from 'react';
import { notifyErrorText } from './notify';

/**
 * A dialog open without its right says 'no permission' and closes (spec section 8), also when the
 * right goes away while it is open (permissions.changed). Returns whether it may show.
 */
export function useRightGuard(opened: boolean, allowed: boolean, onClose: () => void): boolean {
  const refused = opened && !allowed;
  useEffect(() => {
    if (!refused) return;
    notifyErrorText('main.no_permission');
    onClose();
  }, [refused, onClose]);
  return !refused;
}
