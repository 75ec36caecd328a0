import { type Role, type User, UserUpdateSchema } from '@assistente/contracts';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors } from '../../../lib/validation/schemaErrors.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { useDepartmentOptions } from '../../departments/hooks/useDepartments.ts';
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

/** Edits a user's name, role, department and status; the full record is PUT (spec §7). */
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
  const [failure, setFailure] = useState<string | null>(null);
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
    setFailure(null);
  }, [user, setValues, resetDirty]);

  const close = () => {
    if (!update.isPending) onClose();
  };

  const submit = form.onSubmit(async (values) => {
    if (!user) return;
    setFailure(null);
    try {
      const saved = await update.mutateAsync({ ...user, ...values, displayName: values.displayName.trim() });
      onSaved(saved);
    } catch (error) {
      setFailure(apiErrorText(t, error));
    }
  });

  // An inactive department stays selectable for the user already in it.
  const options = (departments.data ?? [])
    .filter((d) => d.active || d._id === user?.department)
    .map((d) => ({ value: d._id, label: d.displayName }));
  const roleOptions = roles.includes(form.values.role) ? roles : [...roles, form.values.role];

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('popup.close') }}
      opened={user !== null}
      onClose={close}
      title={t('users.edit.title')}
      centered
      radius="lg"
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
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
          {failure ? (
            <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close} disabled={update.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
