import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/use-translation';
import type { AliasFormValues } from '../lib/mail-forms';
import { canRemoveTargetRow } from '../lib/target-rows';

/**
 * The alias's target rows: each is checked on blur (and again as it is edited once marked); the
 * first row cannot be removed; empty rows are dropped on submit.
 */
export function AliasTargetsField({ form }: { form: UseFormReturnType<AliasFormValues> }) {
  const { t } = useTranslation();
  const rows = form.getValues().targets;
  const listError = form.errors.targets;
  return (
    <Stack gap="xs" role="group" aria-labelledby="mail-targets-label" data-testid="mail-targets-field">
      <Text id="mail-targets-label" size="sm" fw={500}>
        {t('mail.targets')}
      </Text>
      {rows.map((_, index) => {
        const path = `targets.${index}`;
        const props = form.getInputProps(path);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions in the list
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              {...props}
              // each row is checked on blur (an empty row is no error: it is dropped)
              onBlur={() => form.validateField(path)}
              onChange={(event) => {
                props.onChange(event);
                // a marked row is checked again while it is edited
                if (form.errors[path]) form.validateField(path);
              }}
              style={{ flex: 1 }}
              aria-label={t('mail.target_n', { n: index + 1 })}
              placeholder={t('mail.target_placeholder')}
              type="email"
              inputMode="email"
              autoComplete="off"
              maxLength={320}
              data-testid="mail-target"
            />
            {canRemoveTargetRow(index) ? (
              <Tooltip label={t('mail.remove_target', { n: index + 1 })} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  aria-label={t('mail.remove_target', { n: index + 1 })}
                  onClick={() => form.removeListItem('targets', index)}
                  data-testid="mail-target-remove"
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ) : (
              <div style={{ width: 34, flex: 'none' }} />
            )}
          </Group>
        );
      })}
      {listError ? (
        <Text size="sm" c="red" role="alert" data-testid="mail-targets-error">
          {listError}
        </Text>
      ) : null}
      <Group>
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => form.insertListItem('targets', '')}
          data-testid="mail-target-add"
        >
          {t('mail.add_target')}
        </Button>
      </Group>
    </Stack>
  );
}
