import { type Department, DepartmentCreateSchema } from '@assistente/contracts';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors, validateWith } from '../../../lib/validation/schemaErrors.ts';
import { apiErrorCode, apiErrorText } from '../../../ui/apiError.ts';
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
  const [failure, setFailure] = useState<string | null>(null);
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
    setFailure(null);
  }, [opened, department, setValues]);

  const close = () => {
    if (!pending) onClose();
  };

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const parsed = validateWith(DepartmentCreateSchema, values, t);
    if (!parsed.ok) return;
    try {
      const saved = department
        ? await update.mutateAsync({ id: department._id, body: { displayName: parsed.data.displayName } })
        : await create.mutateAsync({ displayName: parsed.data.displayName, domain });
      onSaved(saved, department === null);
    } catch (error) {
      if (apiErrorCode(error) === 'CONFLICT')
        form.setFieldError('displayName', t('departments.errors.name_taken'));
      else setFailure(apiErrorText(t, error));
    }
  });

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('popup.close') }}
      opened={opened}
      onClose={close}
      title={t(department ? 'departments.edit.title' : 'departments.create.title')}
      centered
      radius="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
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
          {failure ? (
            <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={pending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {t(department ? 'common.save' : 'common.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
