import { isVisible } from '@panel247/contract/constants';
import { useParams } from 'react-router';
import { usePermissionSet } from '../../../api/get-permission-set';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { NotFoundView } from '../../../components/not-found-view';
import { MailView } from '../components/mail-view';

function useServiceId(): number | null {
  const { id } = useParams();
  const value = Number(id);
  return Number.isSafeInteger(value) && value > 0 && String(value) === id ? value : null;
}

/**
 * `/admin/{id}/mail/`: the mail view needs the mail flag and a visible `servicemail`; otherwise
 * (or for a missing item) the not-found view. The view remounts on another id.
 */
export default function MailRoute() {
  const id = useServiceId();
  const set = usePermissionSet(id);
  if (id === null) return <NotFoundView />;
  if (set.isPending) return <DelayedSpinner />;
  if (set.isError || !set.data?.hasMail || !isVisible(set.data.permissions.servicemail)) return <NotFoundView />;
  return <MailView key={id} set={set.data} />;
}
