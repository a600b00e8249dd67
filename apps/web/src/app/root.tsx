import { MantineProvider } from '@mantine/core';
import type { Language, ThemeColor } from '@panel247/contract/constants';
import type { UserInfoData } from '@panel247/contract/user';
import { keepPreviousData, type QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { BrowserRouter } from 'react-router';
import { configQueryKey, FALLBACK_CONFIG, getConfig } from '../api/get-config';
import { getBootUserInfo, userInfoQueryKey } from '../api/get-user-info';
import { LoadingScreen } from '../components/loading-screen';
import { onSessionLost, setBasePath, setForcedLanguage } from '../lib/api-client';
import { AppContext, type AppContextValue } from '../lib/app-context';
import { broadcast, openCrossTab } from '../lib/cross-tab';
import { switchI18nLanguage } from '../lib/i18n';
import { forcedLanguageFromUrl, writeLanguageCookie } from '../lib/language';
import { subscribeToasts, toastsRequested } from '../lib/notify';
import { signalSessionLost, useSessionLost } from '../lib/session-lost';
import { buildTheme, colorSchemeManager } from '../lib/theme';
import { effectiveColor, readThemeColor, writeThemeColor } from '../lib/theme-storage';
import { useTranslation } from '../lib/use-translation';
import { writeViewCookie } from '../lib/view-cookie';
import { CrossTabBridge, RealtimeBridge } from './bridges';
import { AppRoutes } from './router';

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));
const SessionLossModal = lazy(() => import('../features/auth/components/session-loss-modal'));

onSessionLost(signalSessionLost);

interface RootProps {
  initialLanguage: Language;
  queryClient: QueryClient;
  /** The router around the routes: the browser's history, or the server's one address. */
  router?: (routes: ReactNode) => ReactNode;
  /** The colour the user saved, as the server knows it (a cookie): the browser reads its own storage. */
  savedColor?: ThemeColor | null;
}

const browserRouter = (routes: ReactNode) => <BrowserRouter>{routes}</BrowserRouter>;
const noToasts = () => false;

export function Root({ initialLanguage, queryClient, router = browserRouter, savedColor }: RootProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Boot initialLanguage={initialLanguage} router={router} initialColor={savedColor} />
    </QueryClientProvider>
  );
}

function Boot({
  initialLanguage,
  router,
  initialColor,
}: {
  initialLanguage: Language;
  router: (routes: ReactNode) => ReactNode;
  initialColor: ThemeColor | null | undefined;
}) {
  const { t } = useTranslation();
  // the server's page never asked for a toast
  const toasts = useSyncExternalStore(subscribeToasts, toastsRequested, noToasts);
  // The modal's code loads only when a session is actually lost.
  const sessionLost = useSessionLost();
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const configQuery = useQuery({
    queryKey: configQueryKey(language),
    queryFn: getConfig,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
    placeholderData: keepPreviousData,
  });
  const configLoaded = configQuery.isSuccess;
  const config = configQuery.data ?? (configQuery.isError ? FALLBACK_CONFIG : null);
  if (config) setBasePath(config.basePath);

  // Config or user-info failure: the session is treated as absent (spec section 8).
  const userQuery = useQuery({
    queryKey: userInfoQueryKey,
    queryFn: getBootUserInfo,
    enabled: configLoaded,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const user: UserInfoData | null = configLoaded ? (userQuery.data ?? null) : null;

  const [savedColor, setSavedColor] = useState<ThemeColor | null>(() =>
    initialColor === undefined ? readThemeColor() : initialColor,
  );
  const allowColorChange = config?.themeConfig.allowColorChange ?? true;
  const color = effectiveColor(config?.themeConfig.color, allowColorChange, savedColor);
  const theme = useMemo(() => buildTheme(color), [color]);

  useEffect(() => {
    if (config) openCrossTab(config.channel);
  }, [config]);

  const setLanguage = useCallback(async (next: Language) => {
    writeLanguageCookie(next);
    if (forcedLanguageFromUrl()) setForcedLanguage(next);
    await switchI18nLanguage(next);
    setLanguageState(next); // a new config query key: the configuration reloads in this language
    broadcast({ type: 'user.lang', language: next });
  }, []);

  const setColor = useCallback((next: ThemeColor) => {
    writeThemeColor(next);
    writeViewCookie();
    setSavedColor(next);
    broadcast({ type: 'theme.color', color: next });
  }, []);

  const { refetch } = userQuery;
  const refreshSession = useCallback(async () => (await refetch()).data ?? null, [refetch]);

  const value = useMemo<AppContextValue | null>(() => {
    if (!config) return null;
    return {
      config,
      configLoaded,
      language,
      setLanguage,
      color,
      setColor,
      user,
      refreshSession,
      logoUrl: config.themeConfig.logo || '/logo.svg',
      logoMiniUrl: config.themeConfig.logo_mini || '/logo-mini.svg',
    };
  }, [config, configLoaded, language, setLanguage, color, setColor, user, refreshSession]);

  const booting = !value || (configLoaded && userQuery.isPending);

  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      {toasts ? (
        <Suspense fallback={null}>
          <Notifications position="bottom-right" />
        </Suspense>
      ) : null}
      {booting || !value ? (
        <LoadingScreen label={t('main.loading')} />
      ) : (
        <AppContext.Provider value={value}>
          <CrossTabBridge onColor={setSavedColor} />
          {user ? <RealtimeBridge basePath={value.config.basePath} /> : null}
          {router(<AppRoutes />)}
          {sessionLost ? (
            <Suspense fallback={null}>
              <SessionLossModal />
            </Suspense>
          ) : null}
        </AppContext.Provider>
      )}
    </MantineProvider>
  );
}
