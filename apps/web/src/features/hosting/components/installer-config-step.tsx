import { Checkbox, Fieldset, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { AppInput, HostingApplication } from '@panel247/contract/installer';
import { PasswordField } from '../../../components/password-field';
import { useTranslation } from '../../../lib/use-translation';
import { type ConfigValues, configField } from '../lib/installer-rules';

/**
 * Step 3: the application's own questions, section by section, each input by its type. Hidden
 * inputs are not shown (their value is sent as it came); password inputs get the generator.
 */
export function InstallerConfigStep({
  app,
  config,
  errors,
  onChange,
}: {
  app: HostingApplication;
  config: ConfigValues;
  errors: Record<string, string>;
  onChange: (name: string, value: string | boolean) => void;
}) {
  const { t } = useTranslation();
  const sections = app.installConfig
    .map((section) => ({ ...section, inputs: section.inputs.filter((input) => input.type !== 'hidden') }))
    .filter((section) => section.inputs.length > 0);
  if (sections.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="installer-config-empty">
        {t('installer.config_empty')}
      </Text>
    );
  }
  const firstName = sections[0]?.inputs[0]?.name;
  return (
    <Stack gap="md" data-testid="installer-config">
      {sections.map((section, index) => (
        // Sections have no id; their order is fixed for one application.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fieldset key={index} legend={section.title || undefined}>
          <Stack gap="sm">
            {section.inputs.map((input) => (
              <ConfigInput
                key={input.name}
                input={input}
                value={config[input.name]}
                error={errors[configField(input.name)]}
                autoFocus={input.name === firstName}
                onChange={(value) => onChange(input.name, value)}
              />
            ))}
          </Stack>
        </Fieldset>
      ))}
    </Stack>
  );
}

function ConfigInput({
  input,
  value,
  error,
  autoFocus,
  onChange,
}: {
  input: AppInput;
  value: string | boolean | undefined;
  error?: string;
  autoFocus: boolean;
  onChange: (value: string | boolean) => void;
}) {
  const testId = `installer-cfg-${input.name}`;
  const text = typeof value === 'string' ? value : '';
  const common = {
    label: input.label,
    error,
    required: input.isRequired,
    'data-autofocus': autoFocus || undefined,
    'data-testid': testId,
  };
  if (input.type === 'checkbox') {
    return (
      <Checkbox {...common} checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />
    );
  }
  if (input.type === 'select') {
    return (
      <NativeSelect
        {...common}
        value={text}
        onChange={(event) => onChange(event.currentTarget.value)}
        data={[
          // a required select with no stored value starts empty, so the user has to choose
          ...(input.options.some((option) => option.value === text) ? [] : [{ value: text, label: '' }]),
          ...input.options,
        ]}
      />
    );
  }
  if (input.type === 'textarea') {
    return (
      <Textarea
        {...common}
        value={text}
        onChange={(event) => onChange(event.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={10}
        maxLength={input.maxLength}
      />
    );
  }
  if (input.password) {
    return (
      <PasswordField
        label={input.label}
        value={text}
        error={error}
        onChange={onChange}
        testId={testId}
        autoFocus={autoFocus}
        required={input.isRequired}
      />
    );
  }
  return (
    <TextInput
      {...common}
      value={text}
      onChange={(event) => onChange(event.currentTarget.value)}
      maxLength={input.maxLength}
      autoComplete="off"
    />
  );
}
