import type { ConfigData } from '@panel247/contract/config';
import { DEFAULT_BASE_PATH, DEFAULT_CHANNEL, DEFAULT_COLOR } from '@panel247/contract/constants';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client';

export const configQueryKey = (language: string) => ['config', language] as const;

/** What the panel runs with when the configuration cannot be loaded (then: not logged in). */
export const FALLBACK_CONFIG: ConfigData = {
  company: 'Panel247',
  themeConfig: { color: DEFAULT_COLOR, logo: '', logo_mini: '', allowColorChange: true },
  defaultLanguage: 'es',
  language: 'es',
  channel: DEFAULT_CHANNEL,
  basePath: DEFAULT_BASE_PATH,
  captcha: { provider: 'none', siteKey: '', challengeUrl: '' },
};

export function getConfig(): Promise<ConfigData> {
  const referer = document.referrer && !document.referrer.startsWith(location.origin) ? document.referrer : '';
  // Public and exempt from the CSRF check: it is what the page needs before anything else.
  return api<ConfigData>(API.configGet, referer ? { _referer_: referer } : undefined, {
    method: 'GET',
    noCsrfHeader: true,
    ignoreSessionLost: true,
  });
}

export function useConfigQuery(language: string) {
  return useQuery({
    queryKey: configQueryKey(language),
    queryFn: getConfig,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}
