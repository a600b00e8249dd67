import { Group, Input, ScrollArea, SegmentedControl, Stack, Text } from '@mantine/core';
import type { ApiTokenLevel, ApiTokenResource } from '@panel247/contract/api-tokens';
import { useTranslation } from '../../../lib/use-translation';

/**
 * The level of each chosen resource: read, or write where the user may change it (the server
 * refuses more than the user has; here "write" is not even offered there).
 */
export function ApiTokenScopeLevels({
  chosen,
  levels,
  onChange,
}: {
  chosen: ApiTokenResource[];
  levels: Record<number, ApiTokenLevel>;
  onChange: (id: number, level: ApiTokenLevel) => void;
}) {
  const { t } = useTranslation();
  if (chosen.length === 0) return null;
  return (
    <Input.Wrapper label={t('api_tokens.level')} description={t('api_tokens.level_hint')} component="div">
      <ScrollArea.Autosize mah={280} mt={6} type="auto" offsetScrollbars>
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} data-testid="api-token-levels">
          {chosen.map((resource) => (
            <Group
              component="li"
              key={resource.id}
              justify="space-between"
              wrap="wrap"
              gap="xs"
              data-testid="api-token-level-row"
            >
              <Stack gap={0} style={{ flex: '1 1 10rem', minWidth: 0 }}>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {resource.reference}
                </Text>
                {resource.level === 'read' ? (
                  <Text size="xs" c="dimmed">
                    {t('api_tokens.read_only_here')}
                  </Text>
                ) : null}
              </Stack>
              <SegmentedControl
                size="xs"
                aria-label={t('api_tokens.level_for', { reference: resource.reference })}
                value={levels[resource.id] ?? 'read'}
                onChange={(value) => onChange(resource.id, value as ApiTokenLevel)}
                data={[
                  { value: 'read', label: t('api_tokens.level_read') },
                  { value: 'write', label: t('api_tokens.level_write'), disabled: resource.level !== 'write' },
                ]}
                data-testid={`api-token-level-${resource.id}`}
              />
            </Group>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Input.Wrapper>
  );
}
