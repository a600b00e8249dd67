import { Alert, Skeleton, Stack } from '@mantine/core';
import { isVisible } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ListPage } from '../../../components/list-page';
import { NotFoundView } from '../../../components/not-found-view';
import { ApiError } from '../../../lib/api-client';
import { useErrorToast } from '../../../lib/use-error-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useHostingService } from '../api/get-hosting-service';
import { RedirectionsCard } from './redirections-card';
import { ServiceInfoCard } from './service-info-card';
import { ServicePlanCard } from './service-plan-card';
import { WebApplyingAlert } from './web-applying-alert';
import { WebResourcesCard } from './web-resources-card';

/**
 * The hosting service's overview (spec section 2): information (PHP, site builder, parking, error
 * log), web resources and the redirections. In parking mode only the parking toggle and the
 * redirection list are shown.
 */
export function ServiceOverviewView({ set }: { set: PermissionSetData }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const title = t(set.service?.isRedirAndParking ? 'menu.parking' : 'menu.hosting');
  usePageTitle(`${title} · ${set.reference}`);
  const seesService = isVisible(set.permissions.service);
  const seesRedirections = isVisible(set.permissions.service_redirects);
  const query = useHostingService(serviceId, seesService);
  const missing = query.error instanceof ApiError && query.error.status === 404;
  useErrorToast(query.error, !missing);
  // Spec section 8: a service that fails to load reloads the permissions (a withdrawn right shows).
  const queryClient = useQueryClient();
  useEffect(() => {
    if (query.isError && !missing) void queryClient.invalidateQueries({ queryKey: ['permissions'] });
  }, [query.isError, missing, queryClient]);
  if (missing) return <NotFoundView />;

  const service = query.data;
  const parking = service?.parkingActive ?? false;
  return (
    <ListPage testId="service-view" title={set.reference}>
      <WebApplyingAlert set={set} />
      {seesService ? (
        service ? (
          <>
            <ServiceInfoCard set={set} service={service} />
            {parking ? null : <WebResourcesCard set={set} service={service} />}
            <ServicePlanCard plan={service.plan} />
          </>
        ) : query.isError ? (
          <Alert color="red" title={t('main.error')} data-testid="hosting-load-error">
            {t('hosting.load_error')}
          </Alert>
        ) : (
          <Stack gap="xs" role="status" aria-label={t('main.loading')} data-testid="hosting-skeleton">
            <Skeleton height={120} radius="sm" />
            <Skeleton height={160} radius="sm" />
          </Stack>
        )
      ) : null}
      {seesRedirections ? <RedirectionsCard set={set} /> : null}
    </ListPage>
  );
}
