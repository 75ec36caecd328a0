import { type Department, DepartmentCreateSchema } from '@assistente/contracts';
import { Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors, validateWith } from '../../../lib/validation/schemaErrors.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useCreateDepartment, useUpdateDepartment } from '../hooks/useDepartments.ts';

/** Creates a department in `domain`, or renames `department`. */
export function DepartmentDialog({
  opened,
  department,
  domain,
  onClose,
  onSaved,
}: {
  opened: boolean;
  /** The department to rename; null creates one. */
  department: Department | null;
  domain: string;
  onClose: () => void;
  onSaved: (department: Department, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const { failure, clear: clearFailure, fail } = useSubmitFailure();
  const create = useCreateDepartment();
  const update = useUpdateDepartment();
  const pending = create.isPending || update.isPending;
  const form = useForm({
    mode: 'controlled',
    initialValues: { displayName: '' },
    validate: (values) => schemaErrors(DepartmentCreateSchema, values, t),
  });

  const { setValues } = form;
  useEffect(() => {
    if (!opened) return;
    setValues({ displayName: department?.displayName ?? '' });
    clearFailure();
  }, [opened, department, setValues, clearFailure]);

  const submit = form.onSubmit(async (values) => {
    clearFailure();
    const parsed = validateWith(DepartmentCreateSchema, values, t);
    if (!parsed.ok) return;
    try {
      const saved = department
        ? await update.mutateAsync({ id: department._id, body: { displayName: parsed.data.displayName } })
        : await create.mutateAsync({ displayName: parsed.data.displayName, domain });
      onSaved(saved, department === null);
    } catch (error) {
      fail(error, () => form.setFieldError('displayName', t('departments.errors.name_taken')));
    }
  });

  return (
    <FormDialog
      opened={opened}
      title={t(department ? 'departments.edit.title' : 'departments.create.title')}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      failure={failure}
      submitLabel={t(department ? 'common.save' : 'common.create')}
    >
      {department ? null : (
        <Text size="sm" c="dimmed">
          {t('departments.create.description', { domain })}
        </Text>
      )}
      <TextInput
        label={t('departments.fields.name')}
        required
        data-autofocus
        {...form.getInputProps('displayName')}
      />
    </FormDialog>
  );
}
