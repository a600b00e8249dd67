import { Code, NativeSelect, NumberInput, Stack, TagsInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { MailAuthData } from '@panel247/contract/mail-auth';
import {
  cleanList,
  composeDmarc,
  composeSpf,
  DMARC_MAX_REPORT_ADDRESSES,
  DMARC_POLICIES,
  type DmarcPolicy,
  mailAuthPolicyProblems,
  SPF_MAX_INCLUDES,
} from '@panel247/contract/mail-auth-rules';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useSaveMailPolicy } from '../api/save-mail-policy';

interface PolicyValues {
  dmarcPolicy: DmarcPolicy;
  dmarcPct: number | string;
  dmarcRua: string[];
  spfIncludes: string[];
}

/**
 * The guided DMARC and SPF form: the policy, the share of mail it applies to, the report
 * addresses and the SPF include list. The records it will produce show under the fields as they
 * are typed, built by the same contract code the server uses; the server's DNS rules check them.
 */
export function MailPolicyModal({
  opened,
  onClose,
  serviceId,
  data,
  allowed,
}: {
  opened: boolean;
  onClose: () => void;
  serviceId: number;
  data: MailAuthData;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(opened, allowed, onClose);
  const save = useSaveMailPolicy(serviceId);
  const form = useForm<PolicyValues>({
    mode: 'controlled',
    initialValues: {
      dmarcPolicy: data.dmarc.policy,
      dmarcPct: data.dmarc.pct,
      dmarcRua: data.dmarc.rua,
      spfIncludes: data.spf.includes,
    },
    validate: (values) =>
      Object.fromEntries(
        mailAuthPolicyProblems({ ...values, dmarcPct: Number(values.dmarcPct) }).map((problem) => [
          problem.field,
          t(problem.messageKey),
        ]),
      ),
  });
  const values = form.getValues();
  const pct = Number(values.dmarcPct);
  const preview = {
    spf: composeSpf(cleanList(values.spfIncludes), data.spf.record.value),
    dmarc: composeDmarc({
      policy: values.dmarcPolicy,
      pct: Number.isInteger(pct) ? pct : 100,
      rua: cleanList(values.dmarcRua),
    }),
  };
  const submit = form.onSubmit(async (submitted) => {
    try {
      const { info } = await save.mutateAsync({ ...submitted, dmarcPct: Number(submitted.dmarcPct) });
      notifySuccess(info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <AppModal
      opened={opened && shown}
      onClose={onClose}
      title={t('mail.auth.policy_title')}
      size="lg"
      data-testid="mail-auth-policy-modal"
    >
      <form onSubmit={submit} noValidate data-testid="mail-auth-policy-form">
        <Stack gap="md">
          <NativeSelect
            {...form.getInputProps('dmarcPolicy')}
            label={t('mail.auth.dmarc_policy')}
            description={t('mail.auth.dmarc_policy_hint')}
            data={DMARC_POLICIES.map((policy) => ({ value: policy, label: t(`mail.auth.policy_${policy}`) }))}
            data-testid="mail-auth-policy"
          />
          <NumberInput
            {...form.getInputProps('dmarcPct')}
            label={t('mail.auth.dmarc_pct')}
            description={t('mail.auth.dmarc_pct_hint')}
            min={0}
            max={100}
            allowDecimal={false}
            allowNegative={false}
            suffix=" %"
            data-testid="mail-auth-pct"
          />
          <TagsInput
            {...form.getInputProps('dmarcRua')}
            label={t('mail.auth.dmarc_rua')}
            description={t('mail.auth.dmarc_rua_hint', { max: DMARC_MAX_REPORT_ADDRESSES })}
            maxTags={DMARC_MAX_REPORT_ADDRESSES}
            splitChars={[',', ' ']}
            clearable
            data-testid="mail-auth-rua"
          />
          <TagsInput
            {...form.getInputProps('spfIncludes')}
            label={t('mail.auth.spf_include_list')}
            description={t('mail.auth.spf_include_hint', { max: SPF_MAX_INCLUDES })}
            maxTags={SPF_MAX_INCLUDES}
            splitChars={[',', ' ']}
            clearable
            data-testid="mail-auth-includes"
          />
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('mail.auth.preview')}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="mail-auth-preview">
              {`${data.spf.record.name} TXT "${preview.spf}"\n${data.dmarc.record.name} TXT "${preview.dmarc}"`}
            </Code>
          </Stack>
          <FormButtons submitting={save.isPending} onCancel={onClose} submitTestId="mail-auth-submit" />
        </Stack>
      </form>
    </AppModal>
  );
}
