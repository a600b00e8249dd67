import { Button, Card, Grid, Group, Stack, Text, Textarea, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { PrivacyPolicyCheckbox } from '../../../components/privacy-policy';
import { useApp } from '../../../lib/app-context';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { useSendContactMail } from '../api/send-contact-mail';

interface Values {
  email: string;
  subject: string;
  contents: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export default function ContactRoute() {
  const { t } = useTranslation();
  usePageTitle(t('contact.title'));
  const { config } = useApp();
  const send = useSendContactMail();
  const [accepted, setAccepted] = useState(false);
  const required = (value: string) => (value.trim() ? null : t('validation.required'));
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: { email: '', subject: '', contents: '' },
    validate: {
      email: (value) => required(value) ?? (EMAIL.test(value.trim()) ? null : t('validation.email')),
      subject: required,
      contents: required,
    },
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const system = await send.mutateAsync(values);
      notifySuccess(system.info);
      form.reset();
      setAccepted(false);
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('contact.title')}
      </Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder padding="lg">
            <form onSubmit={submit} noValidate data-testid="contact-form">
              <Stack gap="sm">
                <TextInput
                  label={t('contact.email')}
                  type="email"
                  required
                  autoComplete="email"
                  key={form.key('email')}
                  {...form.getInputProps('email')}
                />
                <TextInput
                  label={t('contact.subject')}
                  required
                  key={form.key('subject')}
                  {...form.getInputProps('subject')}
                />
                <Textarea
                  label={t('contact.contents')}
                  required
                  autosize
                  minRows={5}
                  maxRows={14}
                  key={form.key('contents')}
                  {...form.getInputProps('contents')}
                />
                <PrivacyPolicyCheckbox checked={accepted} onChange={setAccepted} />
                <Group justify="flex-end">
                  <Button type="submit" disabled={!accepted} loading={send.isPending} data-testid="contact-send">
                    {t('main.send')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} visibleFrom="md">
          <Card withBorder padding="lg" data-testid="contact-side-text">
            <Stack gap="sm">
              <ThemeIcon variant="light" size="xl" aria-hidden>
                <IconMailForward size={24} />
              </ThemeIcon>
              <Title order={2} size="h4">
                {t('contact.side_title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('contact.side_text', { company: config.company })}
              </Text>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
