import { type Role, type User, UserUpdateSchema } from '@assistente/contracts';
import { NativeSelect, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors } from '../../../lib/validation/schemaErrors.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useDepartmentOptions } from '../../departments/index.ts';
import { useUpdateUser } from '../hooks/useUsers.ts';

interface Values {
  displayName: string;
  role: Role;
  department: string;
  active: boolean;
}

const valuesOf = (user: User): Values => ({
  displayName: user.displayName,
  role: user.role,
  department: user.department,
  active: user.active,
});

/** Edits a user's name, role, department and status; the full record is PUT (docs/ARCHITECTURE.md#organisations-domains-departments-premium). */
export function EditUserDialog({
  user,
  onClose,
  onSaved,
  roles,
  allow,
}: {
  /** The user being edited; null closes the dialog. */
  user: User | null;
  onClose: () => void;
  onSaved: (user: User) => void;
  roles: readonly Role[];
  allow: { changeRole: boolean; changeDepartment: boolean; changeActive: boolean };
}) {
  const { t } = useTranslation();
  const { failure, clear: clearFailure, fail } = useSubmitFailure();
  const update = useUpdateUser();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { displayName: '', role: 'Viewer', department: '', active: true },
    validate: (values) => (user ? schemaErrors(UserUpdateSchema, { ...user, ...values }, t) : {}),
  });
  const departments = useDepartmentOptions(user?.domain ?? '', user !== null);

  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!user) return;
    const values = valuesOf(user);
    setValues(values);
    resetDirty(values);
    clearFailure();
  }, [user, setValues, resetDirty, clearFailure]);

  const submit = form.onSubmit(async (values) => {
    if (!user) return;
    clearFailure();
    try {
      const saved = await update.mutateAsync({ ...user, ...values, displayName: values.displayName.trim() });
      onSaved(saved);
    } catch (error) {
      fail(error);
    }
  });

  // An inactive department stays selectable for the user already in it.
  const options = (departments.data ?? [])
    .filter((d) => d.active || d._id === user?.department)
    .map((d) => ({ value: d._id, label: d.displayName }));
  const roleOptions = roles.includes(form.values.role) ? roles : [...roles, form.values.role];

  return (
    <FormDialog
      opened={user !== null}
      title={t('users.edit.title')}
      onClose={onClose}
      onSubmit={submit}
      pending={update.isPending}
      failure={failure}
      submitLabel={t('common.save')}
      size="lg"
    >
      {user ? (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {user.email}
        </Text>
      ) : null}
      <TextInput
        label={t('users.fields.name')}
        required
        data-autofocus
        {...form.getInputProps('displayName')}
      />
      <NativeSelect
        label={t('users.fields.role')}
        disabled={!allow.changeRole}
        data={roleOptions.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
        {...form.getInputProps('role')}
      />
      <NativeSelect
        label={t('users.fields.department')}
        disabled={!allow.changeDepartment}
        data={options}
        {...form.getInputProps('department')}
      />
      <Switch
        label={t('users.fields.active')}
        description={t('users.edit.active_hint')}
        disabled={!allow.changeActive}
        {...form.getInputProps('active', { type: 'checkbox' })}
      />
    </FormDialog>
  );
}
