import { Box, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { formatEpoch } from '../../../lib/dates';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/use-translation';
import { useCronPreview } from '../api/preview-cron-schedule';
import { CRON_PRESETS, normalizeSchedule, presetAllowed, presetOf } from '../lib/cron-schedule';

/**
 * The schedule's five cron fields, the presets the plan allows as buttons, and what the server
 * reads in it as it is typed: the schedule in words and its next runs, or what is wrong with it
 * under the field.
 */
export function CronScheduleField({
  serviceId,
  minIntervalMinutes,
  value,
  error,
  onChange,
  onBlur,
}: {
  serviceId: number;
  minIntervalMinutes: number;
  value: string;
  /** The form's own error (a failed save's), shown before the preview's. */
  error: ReactNode;
  onChange: (schedule: string) => void;
  onBlur: () => void;
}) {
  const { t, i18n } = useTranslation();
  const presetsId = useId();
  const preview = useCronPreview(serviceId, value);
  const typed = normalizeSchedule(value) !== '';
  const current = presetOf(value);
  // the server names the schedule's mistake as a field error; any other failure is not the field's
  const fieldError = preview.isError ? fieldErrorRecord(preview.error).schedule : undefined;
  const shown = typed && !preview.isError ? preview.data : undefined;

  return (
    <Stack gap={6}>
      <TextInput
        label={t('cron.schedule')}
        description={t('cron.schedule_hint')}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onBlur={onBlur}
        error={error || fieldError}
        required
        maxLength={200}
        autoComplete="off"
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        data-testid="cron-schedule-input"
      />
      <Group gap={6} wrap="wrap" role="group" aria-labelledby={presetsId}>
        <Text id={presetsId} size="xs" c="dimmed">
          {t('cron.presets')}
        </Text>
        {CRON_PRESETS.filter((preset) => presetAllowed(preset, minIntervalMinutes)).map((preset) => (
          <Button
            key={preset.id}
            size="compact-xs"
            variant={current === preset.id ? 'light' : 'default'}
            aria-pressed={current === preset.id}
            onClick={() => onChange(preset.schedule)}
            data-testid={`cron-preset-${preset.id}`}
          >
            {t(`cron.preset.${preset.id}`)}
          </Button>
        ))}
      </Group>
      <Box aria-live="polite" data-testid="cron-preview">
        {shown ? (
          <Stack gap={2}>
            <Text size="sm" fw={500} data-testid="cron-preview-description">
              {shown.description}
            </Text>
            {shown.nextRuns.length > 0 ? (
              <>
                <Text size="xs" c="dimmed">
                  {t('cron.preview_next')}
                </Text>
                <List size="xs" c="dimmed" data-testid="cron-preview-runs">
                  {shown.nextRuns.map((seconds) => (
                    <List.Item key={seconds}>{formatEpoch(seconds, i18n.language)}</List.Item>
                  ))}
                </List>
              </>
            ) : null}
          </Stack>
        ) : preview.isError && !fieldError ? (
          <Text size="xs" c="dimmed" data-testid="cron-preview-failed">
            {t('cron.preview_failed')}
          </Text>
        ) : null}
      </Box>
    </Stack>
  );
}
