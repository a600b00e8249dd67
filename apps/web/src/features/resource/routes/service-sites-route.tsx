import { useTranslation } from 'react-i18next';
import { AreaPlaceholder } from '../components/area-placeholder';
import { ItemGate } from '../components/item-gate';

export default function ServiceSitesRoute() {
  const { t } = useTranslation();
  return (
    <ItemGate requires={['service_subdomains', 'service_redirects']} flag="hasService">
      {(set) => <AreaPlaceholder title={t('menu.sites')} reference={set.reference} testId="sites-view" />}
    </ItemGate>
  );
}
