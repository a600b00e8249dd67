import { Button, Group, NativeSelect } from '@mantine/core';
import { isVisible } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyError, notifyErrorText } from '../../../lib/notify';
import { openSignonTab, safeAction } from '../../../lib/signon-form';
import { useTranslation } from '../../../lib/use-translation';
import { useWebConstructor } from '../api/get-web-constructor';
import { useSubdomains } from '../api/list-subdomains';
import { useWebConstructorLogin } from '../api/web-constructor-login';
import { builderChoices } from '../lib/hosting-rows';

/**
 * Site-builder start: the site to edit ('*' the main domain, or a subdomain), preselected with the
 * builder's current one, and a button that opens the builder's signed URL in a new tab. The tab
 * opens during the click (no popup blocker stops it) and gets the address once the call answers.
 */
export function SiteBuilderControl({ set, allowed }: { set: PermissionSetData; allowed: boolean }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const selected = useWebConstructor(serviceId, allowed);
  const sites = useSubdomains(serviceId, allowed && isVisible(set.permissions.service_subdomains));
  const login = useWebConstructorLogin(serviceId);
  const choices = builderChoices(set.referencePunycode, sites.data ?? []);
  const [picked, setPicked] = useState<string | null>(null);
  const current = selected.data ?? null;
  const value =
    picked ?? (current && choices.some((choice) => choice.value === current) ? current : (choices[0]?.value ?? '*'));
  if (!allowed) return null;

  const open = () => {
    const tab = openSignonTab();
    login.mutate(value, {
      onSuccess: (url) => {
        const address = safeAction(url, window.location.href);
        if (!address) {
          tab?.close();
          notifyErrorText('errors.generic');
        } else if (tab) {
          tab.location.href = address;
        } else {
          window.open(address, '_blank', 'noopener');
        }
      },
      onError: (error) => {
        tab?.close();
        notifyError(error);
      },
    });
  };

  return (
    <Group align="flex-end" gap="sm" wrap="wrap" data-testid="hosting-builder">
      <NativeSelect
        label={t('hosting.builder_site')}
        value={value}
        data={choices}
        onChange={(event) => setPicked(event.currentTarget.value)}
        w={{ base: '100%', xs: 320 }}
        data-testid="hosting-builder-site"
      />
      <Button
        variant="light"
        leftSection={<IconExternalLink size={16} aria-hidden />}
        loading={login.isPending}
        onClick={open}
        data-testid="hosting-builder-open"
      >
        {t('hosting.builder_open')}
      </Button>
    </Group>
  );
}
