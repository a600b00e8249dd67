import { FILES_VIEW } from '../../../app/route-data';
import { ItemGate } from '../../../components/item-gate';
import { FilesView } from '../components/files-view';

/**
 * `/admin/{id}/service/files/?ftp=&path=`: the file manager shows to whoever sees the service's
 * FTP (it works on the same files); otherwise, or for a missing service, the not-found view. The
 * view remounts on another id.
 */
export default function FilesRoute() {
  return <ItemGate {...FILES_VIEW.gate}>{(set) => <FilesView key={set.id} set={set} />}</ItemGate>;
}
