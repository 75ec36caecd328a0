import { type ApiKeyCreated, ApiKeyCreateSchema } from '@assistente/contracts';
import { NativeSelect, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { validateWith } from '../../../lib/validation/schemaErrors.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useCreateApiKey } from '../hooks/useApiKeys.ts';

/** Expiry choices, in days; '' never expires. */
const EXPIRY_DAYS = ['', '7', '30', '90', '365'] as const;
const DAY_MS = 86_400_000;

/** Asks a new key's name and expiry, creates it, and hands over the answer (the secret's only showing). */
export function CreateApiKeyDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (created: ApiKeyCreated) => void;
}) {
  const { t } = useTranslation();
  const { failure, clear: clearFailure, fail } = useSubmitFailure();
  const create = useCreateApiKey();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', days: '90' as string },
    validate: { name: (value) => (value.trim() ? null : t('apiKeys.name_required')) },
  });

  const { setValues } = form;
  useEffect(() => {
    if (!opened) return;
    setValues({ name: '', days: '90' });
    clearFailure();
  }, [opened, setValues, clearFailure]);

  const submit = form.onSubmit(async (values) => {
    clearFailure();
    const days = Number(values.days);
    const parsed = validateWith(
      ApiKeyCreateSchema,
      {
        name: values.name,
        expiresAt: days > 0 ? new Date(Date.now() + days * DAY_MS).toISOString() : null,
      },
      t,
    );
    if (!parsed.ok) return;
    try {
      onCreated(await create.mutateAsync(parsed.data));
    } catch (error) {
      fail(error, () => form.setFieldError('name', t('apiKeys.errors.too_many')));
    }
  });

  return (
    <FormDialog
      opened={opened}
      title={t('apiKeys.create_title')}
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending}
      failure={failure}
      submitLabel={t('apiKeys.create')}
    >
      <TextInput
        label={t('apiKeys.name')}
        placeholder={t('apiKeys.name_placeholder')}
        required
        maxLength={100}
        data-autofocus
        data-testid="api-key-name"
        {...form.getInputProps('name')}
      />
      <NativeSelect
        label={t('apiKeys.expiry')}
        data-testid="api-key-expiry"
        data={EXPIRY_DAYS.map((days) => ({
          value: days,
          label: days ? t('apiKeys.expiry_days', { count: Number(days) }) : t('apiKeys.expiry_never'),
        }))}
        {...form.getInputProps('days')}
      />
    </FormDialog>
  );
}
