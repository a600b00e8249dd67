import { isVisible } from '@panel247/contract/constants';
import { useParams } from 'react-router';
import { usePermissionSet } from '../../../api/get-permission-set';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { NotFoundView } from '../../../components/not-found-view';
import { FtpView } from '../components/ftp-view';

function useServiceId(): number | null {
  const { id } = useParams();
  const value = Number(id);
  return Number.isSafeInteger(value) && value > 0 && String(value) === id ? value : null;
}

/**
 * `/admin/{id}/service/ftp/`: the FTP accounts need a hosting service with `service_ftp` visible;
 * otherwise (or for a missing service) the not-found view. The view remounts on another id.
 */
export default function FtpRoute() {
  const id = useServiceId();
  const set = usePermissionSet(id);
  if (id === null) return <NotFoundView />;
  if (set.isPending) return <DelayedSpinner />;
  if (set.isError || !set.data?.hasService || !isVisible(set.data.permissions.service_ftp)) return <NotFoundView />;
  return <FtpView key={id} set={set.data} />;
}
