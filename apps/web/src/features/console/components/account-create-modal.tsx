import { NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { PasswordField } from '../../../components/password-field';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { type AccountInput, useCreateAccount } from '../api/create-account';
import { useBrands } from '../api/list-brands';
import { usePlans } from '../api/list-plans';

/** The server's own rules for the owner's user name (the contract's, which carries zod). */
const USERNAME = /^[a-z0-9._-]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function AccountForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const plans = usePlans();
  const brands = useBrands(true);
  const create = useCreateAccount();
  const required = (value: string) => (value.trim() ? null : t('validation.required'));
  const form = useForm<AccountInput>({
    mode: 'controlled',
    // plan and brand '': the server's default ones, until the lists say which those are
    initialValues: { domain: '', username: '', password: '', email: '', plan: '', brand: '' },
    validate: {
      domain: required,
      username: (value) => required(value) ?? (USERNAME.test(value.trim()) ? null : t('console.account.username_rule')),
      password: (value) => (value ? null : t('validation.required')),
      email: (value) => (!value.trim() || EMAIL.test(value.trim()) ? null : t('validation.email')),
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { info } = await create.mutateAsync({
        ...values,
        domain: values.domain.trim().toLowerCase(),
        username: values.username.trim(),
        email: values.email.trim(),
      });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });
  const planOptions = [
    { value: '', label: t('console.account.plan_default') },
    ...(plans.data ?? []).map((plan) => ({ value: plan.name, label: plan.name })),
  ];
  const brandOptions = [
    { value: '', label: t('console.account.brand_default') },
    ...(brands.data ?? [])
      .filter((brand) => !brand.isDefault)
      .map((brand) => ({ value: brand.slug, label: brand.name })),
  ];
  return (
    <form onSubmit={submit} noValidate data-testid="account-create-form">
      <Stack gap="md">
        <TextInput
          label={t('console.account.domain')}
          required
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          data-testid="account-domain"
          {...form.getInputProps('domain')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label={t('console.account.username')}
            required
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={64}
            data-testid="account-username"
            {...form.getInputProps('username')}
          />
          <TextInput
            label={t('console.account.email')}
            type="email"
            autoComplete="off"
            data-testid="account-email"
            {...form.getInputProps('email')}
          />
        </SimpleGrid>
        <PasswordField
          label={t('password.label')}
          value={form.values.password}
          error={form.errors.password}
          onChange={(value) => form.setFieldValue('password', value)}
          testId="account-password"
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <NativeSelect
            label={t('console.services.plan')}
            data={planOptions}
            error={form.errors.plan ?? (plans.isError ? t('console.plans.load_error') : undefined)}
            data-testid="account-plan"
            value={form.values.plan}
            onChange={(event) => form.setFieldValue('plan', event.currentTarget.value)}
          />
          <NativeSelect
            label={t('console.services.brand')}
            data={brandOptions}
            error={form.errors.brand ?? (brands.isError ? t('console.account.brands_error') : undefined)}
            data-testid="account-brand"
            value={form.values.brand}
            onChange={(event) => form.setFieldValue('brand', event.currentTarget.value)}
          />
        </SimpleGrid>
        <FormButtons
          submitting={create.isPending}
          onCancel={onClose}
          submitTestId="account-submit"
          submitLabel={t('console.account.submit')}
        />
      </Stack>
    </form>
  );
}

/** A new hosting account: its domain, its owner's login and e-mail, its plan and brand. */
export function AccountCreateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={t('console.account.title')}
      size="lg"
      data-testid="account-create-modal"
    >
      {opened ? <AccountForm onClose={onClose} /> : null}
    </AppModal>
  );
}
