import type { QueryClient } from '@tanstack/react-query';
import { configQueryKey } from '../api/get-config';
import { userInfoQueryKey } from '../api/get-user-info';
import { permissionListQueryKey, permissionSetQueryKey } from '../api/permission-queries';
import { setBasePath } from './api-client';
import { setDisplayHints } from './display-hints';

/** What the server put in a signed-in page (apps/server/src/http/boot-data.ts): the boot's first answers. */
export interface BootData {
  language: string;
  config?: unknown;
  user?: unknown;
  permissions?: unknown;
  set?: { id: number; data: unknown };
  /** On a page the server drew: the view's first data it drew with, by query key. */
  queries?: { queryKey: unknown[]; data: unknown }[];
  /** On a page the server drew: what it assumed of the browser (lib/display-hints.ts). */
  drawnFor?: { phone: boolean };
}

/** The page's boot data, once: read and removed, so nothing later mistakes it for a fresh answer. */
function takeBootData(): BootData | null {
  const element = document.getElementById('panel247-boot');
  if (!element) return null;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as BootData;
  } catch {
    return null;
  }
}

/**
 * Puts the page's boot data in the cache as the calls' own answers, so the boot's prefetches find
 * them fresh and ask nothing: the configuration (when in the language the app opens in), the
 * user, the permission list, the item's permission set and, on a page the server drew, the data
 * it drew the view with (so the app's first render is the server's). What the page does not carry
 * is asked for as before. Says whether the page was a signed-in user's; null when it carried nothing.
 */
export function seedBootData(queryClient: QueryClient, language: string): { signedIn: boolean } | null {
  const boot = takeBootData();
  return boot ? seedBoot(queryClient, language, boot) : null;
}

/** Puts `boot` in the cache (see seedBootData); the server seeds its own render's cache so too. */
export function seedBoot(queryClient: QueryClient, language: string, boot: BootData): { signedIn: boolean } {
  if (boot.config && boot.language === language) {
    queryClient.setQueryData(configQueryKey(language), boot.config);
    // the boot's own calls (the view's first data among them) leave before the app renders
    const { basePath } = boot.config as { basePath?: unknown };
    if (typeof basePath === 'string') setBasePath(basePath);
  }
  // a page the server drew hydrates from what the server assumed (lib/use-phone.ts)
  if (boot.drawnFor) setDisplayHints({ phone: boot.drawnFor.phone });
  if (!boot.user) return { signedIn: false };
  queryClient.setQueryData(userInfoQueryKey, boot.user);
  if (boot.permissions) queryClient.setQueryData(permissionListQueryKey, boot.permissions);
  if (boot.set) queryClient.setQueryData(permissionSetQueryKey(boot.set.id), boot.set.data);
  for (const query of boot.queries ?? []) queryClient.setQueryData(query.queryKey, query.data);
  return { signedIn: true };
}
