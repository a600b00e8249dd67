import { TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation';

/** The folder of an account, typed from the service home ("/" is the home itself). */
export function FtpFolderInput({
  value,
  error,
  onChange,
  onBlur,
  autoFocus,
}: {
  value: string;
  error?: ReactNode;
  onChange: (value: string) => void;
  onBlur?: () => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('ftp.folder')}
      description={t('ftp.folder_hint')}
      value={value}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={onBlur}
      required
      maxLength={255}
      autoComplete="off"
      spellCheck={false}
      data-autofocus={autoFocus || undefined}
      data-testid="ftp-folder-input"
    />
  );
}
