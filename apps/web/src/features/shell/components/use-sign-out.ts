import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { broadcast } from '../../../lib/cross-tab';
import { forgetSession } from '../../../lib/forget-session';
import { paths } from '../../../lib/resource-paths';
import { expectSessionEnd } from '../../../lib/session-lost';
import { useLogout } from '../api/logout';

/** Logout: tell the server, forget the session, tell the other tabs, go to login (spec section 4). */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { mutateAsync } = useLogout();
  return useCallback(async () => {
    // stays set until the next login in this tab (the socket's session.ended may come late)
    expectSessionEnd(true);
    try {
      await mutateAsync();
    } catch {
      // the session may already be gone; logging out locally is still right
    }
    broadcast({ type: 'user.logout' });
    forgetSession(queryClient);
    navigate(paths.login, { replace: true });
  }, [mutateAsync, navigate, queryClient]);
}
