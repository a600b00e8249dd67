import { Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { UserResourcePermissions } from '@panel247/contract/account-users';
import { PERMISSION_LEVELS, type PermissionKey } from '@panel247/contract/constants';
import { useId, useState } from 'react';
import { notifyCall } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useSetUserPermissions } from '../api/set-user-permissions';
import { type Levels, levelsChanged, mayChoose, partsOf, setAll } from '../lib/permission-levels';

function KeyLevel({
  resource,
  permissionKey,
  value,
  onChange,
}: {
  resource: UserResourcePermissions;
  permissionKey: PermissionKey;
  value: Levels[PermissionKey];
  onChange: (value: Levels[PermissionKey]) => void;
}) {
  const { t } = useTranslation();
  const label = t(`users.key.${permissionKey}`);
  return (
    <Group component="li" justify="space-between" wrap="wrap" gap={4} py={4} data-key={permissionKey}>
      <Text size="sm" style={{ flex: '1 1 12rem' }}>
        {label}
      </Text>
      <SegmentedControl
        size="xs"
        aria-label={t('users.level_for', { key: label, reference: resource.reference })}
        value={value}
        onChange={(level) => onChange(level as Levels[PermissionKey])}
        // above what the editor holds: offered only where the user holds it already (keep it or lower it)
        data={PERMISSION_LEVELS.map((level) => ({
          value: level,
          label: t(`users.level.${level}`),
          disabled: !mayChoose(resource, permissionKey, level),
        }))}
        data-testid={`level-${resource.id}-${permissionKey}`}
      />
    </Group>
  );
}

/**
 * One resource of the editor: its keys by part (domain, hosting, mail — the parts it has), each
 * disabled / view / change within the rule, "all of this resource", and Save, which sends every
 * permission key (those of parts it lacks as the user holds them).
 */
export function ResourcePermissions({ userId, resource }: { userId: number; resource: UserResourcePermissions }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [levels, setLevels] = useState<Levels>(resource.levels);
  const save = useSetUserPermissions(userId);
  const parts = partsOf(resource);
  const changed = levelsChanged(resource.levels, levels);

  return (
    <Card
      withBorder
      padding="sm"
      component="section"
      aria-labelledby={titleId}
      data-testid="user-resource"
      data-resource={resource.id}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {resource.reference}
          </Title>
          {parts.length > 0 ? (
            <Group gap={4} wrap="wrap" role="group" aria-label={t('users.all_of', { reference: resource.reference })}>
              <Text size="xs" c="dimmed" aria-hidden>
                {t('users.all')}
              </Text>
              {PERMISSION_LEVELS.map((level) => (
                <Button
                  key={level}
                  size="compact-xs"
                  variant="default"
                  onClick={() => setLevels((current) => setAll(resource, current, level))}
                  data-testid={`all-${resource.id}-${level}`}
                >
                  {t(`users.level.${level}`)}
                </Button>
              ))}
            </Group>
          ) : null}
        </Group>
        {parts.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('users.no_parts')}
          </Text>
        ) : (
          parts.map(({ part, keys }) => (
            <Stack key={part} gap={0}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" component="h4" m={0}>
                {t(`users.part.${part}`)}
              </Text>
              <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
                {keys.map((key) => (
                  <KeyLevel
                    key={key}
                    resource={resource}
                    permissionKey={key}
                    value={levels[key]}
                    onChange={(level) => setLevels((current) => ({ ...current, [key]: level }))}
                  />
                ))}
              </Stack>
            </Stack>
          ))
        )}
        {parts.length > 0 ? (
          <Group justify="flex-end" gap="xs">
            {changed ? (
              <Button variant="default" onClick={() => setLevels(resource.levels)} data-testid={`undo-${resource.id}`}>
                {t('users.undo')}
              </Button>
            ) : null}
            <Button
              loading={save.isPending}
              disabled={!changed}
              aria-label={t('users.save_for', { reference: resource.reference })}
              onClick={() =>
                void notifyCall(
                  () => save.mutateAsync({ resource: resource.id, levels }),
                  () => {},
                )
              }
              data-testid={`save-${resource.id}`}
            >
              {t('main.save')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
