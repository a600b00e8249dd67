import { useMantineColorScheme } from '@mantine/core';
import type { ThemeMode } from '@panel247/contract/constants';
import { useCallback } from 'react';
import { broadcast } from './cross-tab';
import { modeToScheme, schemeToMode } from './theme';

/** The theme mode, and a setter that saves it and pushes it to the other tabs (theme.dark). */
export function useThemeMode(): [ThemeMode, (mode: ThemeMode) => void] {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const setMode = useCallback(
    (mode: ThemeMode) => {
      setColorScheme(modeToScheme(mode));
      broadcast({ type: 'theme.dark', mode });
    },
    [setColorScheme],
  );
  return [schemeToMode(colorScheme), setMode];
}
