import { TextInput, type TextInputProps } from '@mantine/core';
import { maskIpInput } from '../lib/ip';

/**
 * IPv4 in full mode with the spec's typing rules: letters stripped, at most 3 digits a group, a
 * dot added after 3 digits while fewer than 3 dots exist. Validity ('IP Invalida') is the form's.
 */
export function IpInput({
  value,
  onChange,
  ...props
}: Omit<TextInputProps, 'onChange' | 'value'> & { value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      {...props}
      value={value}
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      maxLength={15}
      onChange={(event) => onChange(maskIpInput(event.currentTarget.value))}
    />
  );
}
