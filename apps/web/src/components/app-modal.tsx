import { Modal, type ModalProps } from '@mantine/core';
import { useDoubleEscape } from '../lib/double-escape';
import { useTranslation } from '../lib/use-translation';

type AppModalProps = ModalProps & {
  /**
   * 'double' (the default, spec section 9, for every modal): two Escapes within 200 ms close it.
   * 'none': Escape never closes it (the session-loss modal).
   */
  escapeMode?: 'double' | 'none';
};

export function AppModal({ escapeMode = 'double', opened, onClose, ...props }: AppModalProps) {
  const { t } = useTranslation();
  useDoubleEscape(opened && escapeMode === 'double', onClose);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeOnEscape={false}
      closeOnClickOutside={escapeMode !== 'none'}
      withCloseButton={escapeMode !== 'none'}
      closeButtonProps={{ 'aria-label': t('main.close') }}
      {...props}
    />
  );
}
