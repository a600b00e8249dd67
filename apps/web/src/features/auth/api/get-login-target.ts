import { getPermissionSet } from '../../../api/permission-queries';
import { loginRedirectPath, paths } from '../../../lib/resource-paths';

/** With a domainID: its permissions decide the first allowed area; otherwise the dashboard. */
export async function getLoginTarget(domainID: number | undefined): Promise<string> {
  if (!domainID) return paths.dashboard;
  try {
    return loginRedirectPath(domainID, await getPermissionSet(domainID));
  } catch {
    return paths.dashboard;
  }
}
