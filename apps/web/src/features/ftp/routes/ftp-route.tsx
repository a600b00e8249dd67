import { FTP_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { FtpView } from '../components/ftp-view';

/**
 * `/admin/{id}/service/ftp/`: the FTP accounts need a hosting service with `service_ftp` visible;
 * otherwise (or for a missing service) the not-found view. The view remounts on another id.
 */
export default function FtpRoute() {
  return <ItemGate {...FTP_VIEW.gate}>{(set) => <FtpView key={set.id} set={set} />}</ItemGate>;
}
