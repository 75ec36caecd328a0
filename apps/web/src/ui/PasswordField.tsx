import { TextInput, type TextInputProps, UnstyledButton } from '@mantine/core';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { type MouseEvent, useState } from 'react';
import classes from './PasswordField.module.css';

export type PasswordFieldProps = Omit<TextInputProps, 'type' | 'rightSection'>;

/**
 * A password input with a show/hide toggle, on TextInput: Mantine's PasswordInput brings
 * ActionIcon and its own input wrapper, ~2 KB gzip the login page's JS budget cannot spare.
 * Behaves like it: the toggle is skipped by Tab and keeps the focus in the input.
 */
export function PasswordField(props: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const Icon = visible ? IconEyeOff : IconEye;
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      rightSection={
        <UnstyledButton
          className={classes.toggle}
          tabIndex={-1}
          aria-label="Toggle password visibility"
          aria-pressed={visible}
          disabled={props.disabled}
          onMouseDown={(event: MouseEvent) => event.preventDefault()}
          onClick={() => setVisible((shown) => !shown)}
        >
          <Icon size={18} stroke={1.6} aria-hidden="true" />
        </UnstyledButton>
      }
    />
  );
}
