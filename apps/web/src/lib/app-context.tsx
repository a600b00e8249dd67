import type { ConfigData } from '@panel247/contract/config';
import type { Language, ThemeColor } from '@panel247/contract/constants';
import type { UserInfoData } from '@panel247/contract/user';
import { createContext, useContext } from 'react';

/** What every screen may read: the brand's configuration, the language, the colour and the session. */
export interface AppContextValue {
  config: ConfigData;
  /** False when the configuration could not be loaded (then the session counts as absent). */
  configLoaded: boolean;
  language: Language;
  setLanguage: (language: Language) => Promise<void>;
  color: ThemeColor;
  setColor: (color: ThemeColor) => void;
  user: UserInfoData | null;
  /** Re-reads user/info (after login or logout). */
  refreshSession: () => Promise<UserInfoData | null>;
  logoUrl: string;
  logoMiniUrl: string;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside AppContext');
  return value;
}
