import {
  Anchor,
  Button,
  Card,
  ColorSwatch,
  Group,
  Image,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ConsoleBrand } from '@panel247/contract/console';
import { LANGUAGES, type Language, THEME_COLORS } from '@panel247/contract/constants';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { LANGUAGE_NAMES } from '../../../components/language-select';
import { ListCard, ListPage } from '../../../components/list-page';
import { ApiError } from '../../../lib/api-client';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess, translateError } from '../../../lib/notify';
import { PALETTE } from '../../../lib/theme-colors';
import { useTranslation } from '../../../lib/use-translation';
import { useBrand } from '../api/get-brand';
import { type LegalPayload, useSaveBrand } from '../api/save-brand';
import { type BrandValues, brandPayload, brandValues, legalValues, previewable } from '../lib/brand-form';
import { consolePaths } from '../lib/console-paths';
import { useConsoleTitle } from '../lib/use-console-title';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A logo's field and, once it holds an address the server would take, the picture it points to. */
function LogoField({
  label,
  alt,
  testId,
  inputProps,
  value,
}: {
  label: string;
  alt: string;
  testId: string;
  inputProps: object;
  value: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <TextInput
        label={label}
        description={t('console.brands.logo_hint')}
        autoComplete="off"
        spellCheck={false}
        maxLength={2048}
        data-testid={testId}
        {...inputProps}
      />
      {previewable(value) ? (
        <Image
          src={value.trim()}
          alt={alt}
          h={40}
          w="auto"
          maw="100%"
          fit="contain"
          style={{ alignSelf: 'flex-start' }}
          data-testid={`${testId}-preview`}
        />
      ) : null}
    </Stack>
  );
}

function BrandForm({ brand }: { brand: ConsoleBrand }) {
  const { t } = useTranslation();
  const save = useSaveBrand();
  const form = useForm<BrandValues>({
    mode: 'controlled',
    initialValues: brandValues(brand),
    validate: {
      company: (value) => (value.trim() ? null : t('validation.required')),
      contactEmail: (value) => (!value.trim() || EMAIL.test(value.trim()) ? null : t('validation.email')),
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({ kind: 'brand', slug: brand.slug, payload: brandPayload(values) });
      notifySuccess([t('console.brands.saved')]);
    } catch (error) {
      // a logo the server does not take comes back under its field
      handleFormError(form, error);
    }
  });
  const company = form.values.company.trim() || brand.slug;
  return (
    <form onSubmit={submit} noValidate data-testid="brand-form">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          <TextInput
            label={t('console.brands.company')}
            required
            maxLength={255}
            autoComplete="off"
            data-testid="brand-company"
            {...form.getInputProps('company')}
          />
          <TextInput
            label={t('console.brands.contact_email')}
            type="email"
            autoComplete="off"
            data-testid="brand-contact-email"
            {...form.getInputProps('contactEmail')}
          />
          <Group gap="sm" align="flex-end" wrap="nowrap">
            <NativeSelect
              label={t('console.brands.color')}
              data={THEME_COLORS.map((color) => ({ value: color, label: t(`colors.${color}`) }))}
              style={{ flex: 1 }}
              data-testid="brand-color"
              {...form.getInputProps('color')}
            />
            <ColorSwatch
              color={PALETTE[form.values.color][6]}
              size={36}
              role="img"
              aria-label={t('console.brands.color_swatch', { color: t(`colors.${form.values.color}`) })}
              data-testid="brand-color-swatch"
            />
          </Group>
          <NativeSelect
            label={t('console.brands.default_language')}
            data={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
            data-testid="brand-language"
            {...form.getInputProps('defaultLanguage')}
          />
          <LogoField
            label={t('console.brands.logo')}
            alt={t('console.brands.logo_preview', { company })}
            testId="brand-logo"
            inputProps={form.getInputProps('logo')}
            value={form.values.logo}
          />
          <LogoField
            label={t('console.brands.logo_mini')}
            alt={t('console.brands.logo_mini_preview', { company })}
            testId="brand-logo-mini"
            inputProps={form.getInputProps('logoMini')}
            value={form.values.logoMini}
          />
        </SimpleGrid>
        <Switch
          label={t('console.brands.allow_color')}
          data-testid="brand-allow-color"
          {...form.getInputProps('allowColorChange', { type: 'checkbox' })}
        />
        <Switch
          label={t('console.brands.require_2fa')}
          description={t('console.brands.require_2fa_hint')}
          data-testid="brand-require-2fa"
          {...form.getInputProps('require2fa', { type: 'checkbox' })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="brand-submit">
            {t('console.brands.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LegalForm({ brand, language }: { brand: ConsoleBrand; language: Language }) {
  const { t } = useTranslation();
  const save = useSaveBrand();
  const form = useForm<LegalPayload>({ mode: 'controlled', initialValues: legalValues(brand, language) });
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({
        kind: 'legal',
        slug: brand.slug,
        payload: { ...values, title: values.title.trim(), redirectTo: values.redirectTo.trim() },
      });
      notifySuccess([t('console.brands.legal_saved', { language: LANGUAGE_NAMES[language] })]);
    } catch (error) {
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="legal-form" lang={language}>
      <Stack gap="md">
        <TextInput
          label={t('console.brands.legal_heading')}
          maxLength={200}
          autoComplete="off"
          data-testid="legal-title"
          {...form.getInputProps('title')}
        />
        <Textarea
          label={t('console.brands.legal_body')}
          autosize
          minRows={6}
          maxRows={20}
          maxLength={50_000}
          data-testid="legal-body"
          {...form.getInputProps('body')}
        />
        <TextInput
          label={t('console.brands.legal_redirect')}
          description={t('console.brands.legal_redirect_hint')}
          autoComplete="off"
          spellCheck={false}
          maxLength={2048}
          data-testid="legal-redirect"
          {...form.getInputProps('redirectTo')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="legal-submit">
            {t('console.brands.legal_save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The privacy policy in each language: one language at a time, its own form. */
function LegalCard({ brand }: { brand: ConsoleBrand }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<Language>(brand.defaultLanguage);
  return (
    <ListCard
      title={t('console.brands.legal_title')}
      subtitle={
        <Text size="sm" c="dimmed">
          {t('console.brands.legal_hint')}
        </Text>
      }
    >
      <Stack gap={4}>
        <Text size="sm" fw={500} id="legal-language-label">
          {t('console.brands.legal_language')}
        </Text>
        <SegmentedControl
          role="radiogroup"
          aria-labelledby="legal-language-label"
          value={language}
          onChange={(value) => setLanguage(LANGUAGES.find((one) => one === value) ?? language)}
          data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
          data-testid="legal-language"
          style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
        />
      </Stack>
      {/* a form per language: switching shows that language's saved text, not the one being typed */}
      <LegalForm key={language} brand={brand} language={language} />
    </ListCard>
  );
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={consolePaths.brands} size="sm" data-testid="brand-back">
      <Group gap={4} component="span" wrap="nowrap">
        <IconArrowLeft size={14} aria-hidden />
        {t('console.brands.back')}
      </Group>
    </Anchor>
  );
}

/** A brand's editor (`/console/brands/{slug}/`): its look and contact, then its privacy policy. */
export function BrandEditor() {
  const { t } = useTranslation();
  const slug = useParams().slug ?? '';
  const brand = useBrand(slug);
  const name = brand.data?.company || slug;
  useConsoleTitle(t('console.brands.editor_title', { name }));
  if (brand.isPending) return <DelayedSpinner />;
  if (brand.isError) {
    const gone = brand.error instanceof ApiError && brand.error.status === 404;
    return (
      <Card withBorder padding="xl" data-testid="brand-error">
        <Stack gap="md" align="flex-start">
          <Text role="alert">{gone ? t('console.brands.not_found') : translateError(brand.error)}</Text>
          <Group gap="sm">
            {gone ? null : (
              <Button onClick={() => void brand.refetch()} loading={brand.isFetching}>
                {t('console.retry')}
              </Button>
            )}
            <BackLink />
          </Group>
        </Stack>
      </Card>
    );
  }
  return (
    <ListPage testId="console-brand-editor" title={t('console.brands.editor_title', { name })}>
      <BackLink />
      <ListCard title={t('console.brands.settings_title')}>
        <BrandForm key={brand.data.slug} brand={brand.data} />
      </ListCard>
      <LegalCard key={brand.data.slug} brand={brand.data} />
    </ListPage>
  );
}
