import { Alert, Button, Group, Text } from '@mantine/core';
import { notifyCall } from '../lib/notify';
import { useTranslation } from '../lib/use-translation';

/**
 * Says that an object's latest changes are not all on its server yet: being applied, or failing
 * (with why) and tried again by the panel; a user who may change the object can try now. The
 * areas give the words (a zone's DNS server, a service's web server) and the retry call.
 */
export function PendingWorkAlert({
  state,
  title,
  text,
  retry,
  testId,
}: {
  state: 'pending' | 'failing';
  title: string;
  text: string;
  /** The "try again" call, offered while failing; absent: the user may only look. */
  retry?: { run: () => Promise<readonly string[] | undefined>; running: boolean };
  testId: string;
}) {
  const { t } = useTranslation();
  const failing = state === 'failing';
  return (
    <Alert
      color={failing ? 'orange' : 'blue'}
      variant="light"
      role="status"
      data-testid={testId}
      data-state={state}
      title={title}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">{text}</Text>
        {failing && retry && (
          <Button
            size="xs"
            variant="light"
            loading={retry.running}
            onClick={() =>
              void notifyCall(
                () => retry.run(),
                () => undefined,
              )
            }
            data-testid={`${testId}-retry`}
          >
            {t('work.retry')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
