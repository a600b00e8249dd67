import { ResourceList } from '../components/resource-list';

export default function DomainListRoute() {
  return <ResourceList kind="domain" />;
}
