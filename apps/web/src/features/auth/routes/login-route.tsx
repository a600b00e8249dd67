import { Button, Center } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { PublicLayout } from '../../../components/public-layout';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { LoginForm } from '../components/login-form';

// Loaded on first use: the modal and its privacy-policy parts stay out of the login route's budget.
const ForgotPasswordModal = lazy(() => import('../components/forgot-password-modal'));

export default function LoginRoute() {
  const { t } = useTranslation();
  usePageTitle(t('login.page_title'));
  const [forgotOpen, setForgotOpen] = useState(false);
  const [forgotRequested, setForgotRequested] = useState(false);
  return (
    <PublicLayout>
      <LoginForm />
      <Center>
        <Button
          variant="subtle"
          onClick={() => {
            setForgotRequested(true);
            setForgotOpen(true);
          }}
          data-testid="forgot-open"
        >
          {t('login.forgot')}
        </Button>
      </Center>
      {forgotRequested ? (
        <Suspense fallback={null}>
          <ForgotPasswordModal opened={forgotOpen} onClose={() => setForgotOpen(false)} />
        </Suspense>
      ) : null}
    </PublicLayout>
  );
}
