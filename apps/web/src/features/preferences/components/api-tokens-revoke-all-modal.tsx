import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { AppModal } from '../../../components/app-modal';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useRevokeAllApiTokens } from '../api/revoke-all-api-tokens';
import { ReauthControls, type ReauthModalProps, reauthFactors, reauthRules, useReauthVia } from './reauth-controls';

/**
 * Revoking every API token of the user at once (a copy may have leaked): the confirmation, with
 * the same re-authentication as creating a token.
 */
export function ApiTokensRevokeAllModal({ opened, onClose, needsCode, hasPasskeys }: ReauthModalProps) {
  const { t } = useTranslation();
  const revokeAll = useRevokeAllApiTokens();
  const { ref: viaRef, via, choose } = useReauthVia(hasPasskeys);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', code: '' },
    validate: {
      ...reauthRules(needsCode, viaRef, t('validation.required')),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);

  const submit = form.onSubmit(async (values) => {
    try {
      const answer = await revokeAll.mutateAsync({
        ...reauthFactors(values, { needsCode, hasPasskeys }, viaRef.current),
      });
      notifySuccess(answer.system.info);
      onClose();
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={t('api_tokens.revoke_all_title')}
      data-testid="api-tokens-revoke-all-modal"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('api_tokens.revoke_all_confirm')}</Text>
          <ReauthControls
            form={form}
            needsCode={needsCode}
            hasPasskeys={hasPasskeys}
            via={via}
            onChoose={choose}
            pending={revokeAll.isPending}
            onCancel={onClose}
            testId="api-tokens-revoke-all"
            labels={{
              submit: t('api_tokens.revoke_all'),
              withCode: t('api_tokens.revoke_all_with_code'),
              withPasskey: t('api_tokens.revoke_all_with_passkey'),
            }}
            color="red"
          />
        </Stack>
      </form>
    </AppModal>
  );
}
