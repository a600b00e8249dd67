import type { PermissionSetData } from '@panel247/contract/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { reloadPermissionSet } from '../api/get-permission-set';
import { notifyError } from './notify';

/**
 * A dialog about to act asks for its permission set afresh when it opens (spec section 4: the
 * cached set may be stale). Returns true once the fresh set fails `allows` (false again when the
 * dialog closes); a failed load is toasted and closes the dialog.
 */
export function usePermissionRecheck(
  opened: boolean,
  id: number,
  allows: (set: PermissionSetData) => boolean,
  onClose: () => void,
): boolean {
  const queryClient = useQueryClient();
  const [refused, setRefused] = useState(false);
  // the latest rule, without asking the server again each time the caller renders a new function
  const allowsRef = useRef(allows);
  allowsRef.current = allows;
  useEffect(() => {
    if (!opened) {
      setRefused(false);
      return;
    }
    let live = true;
    reloadPermissionSet(queryClient, id).then(
      (fresh) => {
        if (live && !allowsRef.current(fresh)) setRefused(true);
      },
      (error: unknown) => {
        if (!live) return;
        notifyError(error);
        onClose();
      },
    );
    return () => {
      live = false;
    };
  }, [opened, queryClient, id, onClose]);
  return refused;
}
