import { ResourceList } from '../components/resource-list';

export default function MailListRoute() {
  return <ResourceList kind="mail" />;
}
