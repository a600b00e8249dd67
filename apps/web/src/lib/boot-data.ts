import type { QueryClient } from '@tanstack/react-query';
import { configQueryKey } from '../api/get-config';
import { userInfoQueryKey } from '../api/get-user-info';
import { permissionListQueryKey, permissionSetQueryKey } from '../api/permission-queries';

/** What the server put in a signed-in page (apps/server/src/http/boot-data.ts): the boot's first answers. */
interface BootData {
  language: string;
  config?: unknown;
  user?: unknown;
  permissions?: unknown;
  set?: { id: number; data: unknown };
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
 * user, the permission list and the item's permission set. What the page does not carry is asked
 * for as before.
 */
export function seedBootData(queryClient: QueryClient, language: string): void {
  const boot = takeBootData();
  if (!boot) return;
  if (boot.config && boot.language === language) queryClient.setQueryData(configQueryKey(language), boot.config);
  if (!boot.user) return;
  queryClient.setQueryData(userInfoQueryKey, boot.user);
  if (boot.permissions) queryClient.setQueryData(permissionListQueryKey, boot.permissions);
  if (boot.set) queryClient.setQueryData(permissionSetQueryKey(boot.set.id), boot.set.data);
}
