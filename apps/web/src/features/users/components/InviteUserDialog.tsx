import { type Role, type UserCreate, type UserCreated, UserCreateSchema } from '@assistente/contracts';
import { NativeSelect, Select, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors, validateWith } from '../../../lib/validation/schemaErrors.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useDepartmentOptions } from '../../departments/index.ts';
import { useDomainOptions } from '../../domains/index.ts';
import { useCreateUser } from '../hooks/useUsers.ts';

interface Values {
  email: string;
  displayName: string;
  domain: string;
  department: string;
  role: Role;
}

/**
 * Invites a user: the identity account is created and a set-password link is mailed in the
 * inviter's language. Validated with the contract's `UserCreateSchema` before the call.
 */
export function InviteUserDialog({
  opened,
  onClose,
  onCreated,
  callerDomain,
  callerDepartment,
  chooseDomain,
  roles,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (user: UserCreated) => void;
  /** The inviter's domain: the default, and the only choice for an Admin. */
  callerDomain: string;
  /** Preselected when it is an active department of the chosen domain. */
  callerDepartment?: string;
  /** A SuperAdmin picks the domain. */
  chooseDomain: boolean;
  roles: readonly Role[];
}) {
  const { t, i18n } = useTranslation();
  const { failure, clear: clearFailure, fail } = useSubmitFailure();
  const create = useCreateUser();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { email: '', displayName: '', domain: callerDomain, department: '', role: 'Viewer' },
    validate: (values) => schemaErrors(UserCreateSchema, values, t),
  });
  const domains = useDomainOptions(opened && chooseDomain);
  const departments = useDepartmentOptions(form.values.domain || callerDomain, opened);
  const active = (departments.data ?? []).filter((d) => d.active);

  // A department of the chosen domain is preselected (the first), and replaced when the domain changes.
  const { setFieldValue } = form;
  const department = form.values.department;
  const loaded = departments.data;
  useEffect(() => {
    if (!loaded) return;
    const choices = loaded.filter((d) => d.active);
    const first = choices.find((d) => d._id === callerDepartment)?._id ?? choices[0]?._id ?? '';
    if (department !== first && !choices.some((d) => d._id === department))
      setFieldValue('department', first);
  }, [loaded, department, callerDepartment, setFieldValue]);

  const close = () => {
    form.reset();
    clearFailure();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    clearFailure();
    const parsed = validateWith(UserCreateSchema, values, t);
    if (!parsed.ok) return;
    const body: UserCreate = parsed.data;
    try {
      const created = await create.mutateAsync({ body, locale: i18n.language });
      form.reset();
      onCreated(created);
    } catch (error) {
      fail(error, () => form.setFieldError('email', t('users.errors.email_taken')));
    }
  });

  return (
    <FormDialog
      opened={opened}
      title={t('users.invite.title')}
      onClose={close}
      onSubmit={submit}
      pending={create.isPending}
      failure={failure}
      submitLabel={t('users.invite.submit')}
      size="lg"
    >
      <Text size="sm" c="dimmed">
        {t('users.invite.description')}
      </Text>
      <TextInput
        label={t('users.fields.email')}
        type="email"
        autoComplete="off"
        required
        data-autofocus
        {...form.getInputProps('email')}
      />
      <TextInput label={t('users.fields.name')} required {...form.getInputProps('displayName')} />
      {chooseDomain ? (
        <Select
          label={t('users.fields.domain')}
          required
          searchable
          allowDeselect={false}
          nothingFoundMessage={t('common.nothing_found')}
          data={(domains.data ?? []).map((d) => ({ value: d._id, label: `${d.displayName} (${d._id})` }))}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('domain')}
        />
      ) : null}
      <NativeSelect
        label={t('users.fields.department')}
        required
        data={
          active.length > 0
            ? active.map((d) => ({ value: d._id, label: d.displayName }))
            : [
                {
                  value: '',
                  label: t(departments.isPending ? 'app.loading' : 'users.invite.no_departments'),
                },
              ]
        }
        {...form.getInputProps('department')}
      />
      <NativeSelect
        label={t('users.fields.role')}
        required
        data={roles.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
        {...form.getInputProps('role')}
      />
    </FormDialog>
  );
}
