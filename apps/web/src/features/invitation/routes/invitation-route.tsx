import { Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import type { InvitationAcceptData } from '@panel247/contract/account-users';
import { IconLogin } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PublicLayout } from '../../../components/public-layout';
import { formatEpoch } from '../../../lib/dates';
import { translateError } from '../../../lib/notify';
import { paths } from '../../../lib/resource-paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useInvitationCheck } from '../api/check-invitation';
import { InvitationForm } from '../components/invitation-form';

/** The link's token: the address's fragment, which never reaches a server nor a Referer header. */
function tokenOf(hash: string): string {
  return hash.startsWith('#') ? hash.slice(1) : hash;
}

/** A way on to the login page, under every ending of this page. */
function LoginButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button
      fullWidth
      variant="light"
      leftSection={<IconLogin size={16} aria-hidden />}
      onClick={() => navigate(paths.login)}
      data-testid="invitation-login"
    >
      {t('invitation.to_login')}
    </Button>
  );
}

/**
 * `/invitation/#<token>`: an invited user sets their password. Public, styled as the login page,
 * and shown to a logged-in visitor as well (the link may be opened in a browser where someone else
 * is signed in). The link is checked first; a refused one says why (the server's words).
 */
export default function InvitationRoute() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('invitation.page_title'));
  const { hash } = useLocation();
  const navigate = useNavigate();
  const token = tokenOf(hash);
  const check = useInvitationCheck(token);
  const [done, setDone] = useState<InvitationAcceptData | null>(null);

  const finish = (data: InvitationAcceptData) => {
    setDone(data);
    // the link is spent: it leaves the address (and the history entry)
    navigate(paths.invitation, { replace: true });
  };

  let body: ReactNode;
  if (done) {
    body = (
      <Stack gap="md" data-testid="invitation-done">
        <Text role="status">{t('invitation.done', { username: done.username, domainName: done.domainName })}</Text>
        <LoginButton />
      </Stack>
    );
  } else if (!token || check.isError) {
    body = (
      <Stack gap="md" data-testid="invitation-invalid">
        <Text role="alert">{token ? translateError(check.error) : t('invitation.no_token')}</Text>
        <LoginButton />
      </Stack>
    );
  } else if (check.isPending) {
    body = <Loader size="sm" role="status" aria-label={t('main.loading')} />;
  } else {
    body = (
      <Stack gap="md">
        <Text data-testid="invitation-for" style={{ overflowWrap: 'anywhere' }}>
          {t('invitation.intro', { username: check.data.username, domainName: check.data.domainName })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('invitation.until', { when: formatEpoch(check.data.expiresAt, i18n.language) })}
        </Text>
        <InvitationForm token={token} onDone={finish} />
      </Stack>
    );
  }

  return (
    <PublicLayout>
      <Card withBorder shadow="sm" padding="xl" radius="md" component="section" aria-labelledby="invitation-title">
        <Stack gap="md">
          <Title order={1} size="h3" id="invitation-title">
            {t('invitation.title')}
          </Title>
          {body}
        </Stack>
      </Card>
    </PublicLayout>
  );
}
