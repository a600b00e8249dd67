import { useTranslation } from 'react-i18next';
import { AreaPlaceholder } from '../components/area-placeholder';
import { ItemGate } from '../components/item-gate';

export default function ServiceOverviewRoute() {
  const { t } = useTranslation();
  return (
    <ItemGate requires={['service', 'service_parking']} flag="hasService">
      {(set) => (
        <AreaPlaceholder
          title={t(set.service?.isRedirAndParking ? 'menu.parking' : 'menu.hosting')}
          reference={set.reference}
          testId="service-view"
        />
      )}
    </ItemGate>
  );
}
