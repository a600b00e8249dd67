import { NotFoundView } from '../../../components/not-found-view';
import { PublicLayout } from '../../../components/public-layout';
import { useApp } from '../../../lib/app-context';

export default function NotFoundRoute() {
  const { user } = useApp();
  if (!user) {
    return (
      <PublicLayout>
        <NotFoundView />
      </PublicLayout>
    );
  }
  return <NotFoundView />;
}
