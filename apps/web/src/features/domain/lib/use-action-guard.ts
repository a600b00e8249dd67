import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { ApiError } from '../../../lib/api-client';
import { handleFormError } from '../../../lib/form-errors';
import { notifyError, notifyErrorText } from '../../../lib/notify';

/** An action refused for lack of the right (the server answers 403 'main.no_permission'). */
export function isRevoked(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/**
 * Revoked permission (spec section 4): the dialog closes, 'main.no_permission' shows and the
 * permission sets reload (the same refresh a realtime `permissions.changed` fires).
 */
export function useRevoke() {
  const queryClient = useQueryClient();
  return useCallback(
    (close: () => void) => {
      notifyErrorText('main.no_permission');
      close();
      void queryClient.invalidateQueries({ queryKey: ['permissions'] });
    },
    [queryClient],
  );
}

/** A dialog open while its right is (or becomes, after a permission reload) missing closes with 'main.no_permission'. */
export function useActionGuard(opened: boolean, allowed: boolean, onClose: () => void): boolean {
  const revoke = useRevoke();
  const refused = opened && !allowed;
  useEffect(() => {
    if (refused) revoke(onClose);
  }, [refused, onClose, revoke]);
  return !refused;
}

/** A failed action: a 403 closes the dialog as revoked; otherwise the toast and the field errors. */
export function useActionError() {
  const revoke = useRevoke();
  return useCallback(
    (error: unknown, close: () => void, form?: { setErrors: (errors: Record<string, string>) => void }) => {
      if (isRevoked(error)) revoke(close);
      else if (form) handleFormError(form, error);
      else notifyError(error);
    },
    [revoke],
  );
}
