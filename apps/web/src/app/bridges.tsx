import { useMantineColorScheme } from '@mantine/core';
import type { ThemeColor } from '@panel247/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onCrossTab } from '../lib/cross-tab';
import { connectRealtime } from '../lib/realtime';
import { isSessionEndExpected, signalSessionLost } from '../lib/session-lost';
import { modeToScheme } from '../lib/theme';
import { isThemeColor } from '../lib/theme-storage';
import { announceWorkChanged } from '../lib/work-events';

/** Other tabs: login, logout and language changes reload; theme changes apply at once. */
export function CrossTabBridge({ onColor }: { onColor: (color: ThemeColor) => void }) {
  const { setColorScheme } = useMantineColorScheme();
  useEffect(
    () =>
      onCrossTab((message) => {
        switch (message.type) {
          case 'user.login':
          case 'user.logout':
          case 'user.lang':
            window.location.reload();
            break;
          case 'theme.color':
            if (isThemeColor(message.color)) onColor(message.color);
            break;
          case 'theme.dark':
            if (message.mode === 'dark' || message.mode === 'light' || message.mode === 'system') {
              setColorScheme(modeToScheme(message.mode));
            }
            break;
        }
      }),
    [onColor, setColorScheme],
  );
  return null;
}

/**
 * The realtime socket: permission changes refresh menus and permission sets; a resource's changes
 * landing on its server refresh its views; a session end opens the modal.
 */
export function RealtimeBridge({ basePath }: { basePath: string }) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      connectRealtime(basePath, {
        onMessage: (message) => {
          if (message.type === 'permissions.changed') {
            void queryClient.invalidateQueries({ queryKey: ['permissions'] });
          } else if (message.type === 'work.changed') {
            // the views of that resource's pending state read it again (lib/work-events.ts)
            announceWorkChanged({ area: message.area, resourceId: message.resourceId });
          } else if (message.type === 'session.ended' && !isSessionEndExpected()) {
            signalSessionLost();
          }
        },
      }),
    [basePath, queryClient],
  );
  return null;
}
