import { ResourceList } from '../components/resource-list';

export default function ServiceListRoute() {
  return <ResourceList kind="service" />;
}
