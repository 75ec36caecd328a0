import {
  type VirtualAccount,
  VirtualAccountCreateSchema,
  VirtualAccountUpdateSchema,
  type VirtualAccountWithSecret,
} from '@assistente/contracts';
import {
  ColorInput,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useId } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors, validateWith } from '../../../lib/validation/schemaErrors.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { EmbeddedPreview } from '../../embed-visitor/index.ts';
import { useSantito, useSantitos } from '../../santitos/index.ts';
import { useCreateEmbed, useUpdateEmbed } from '../hooks/useEmbeds.ts';

interface Values {
  displayName: string;
  color: string;
  agentId: string | null;
  /** One exact origin per line. */
  allowedOrigins: string;
  welcome: string;
  identity: 'anonymous' | 'signed';
  messagesPerMinute: number | string;
  messagesPerDay: number | string;
  allowAttachments: boolean;
  active: boolean;
}

const emptyValues: Values = {
  displayName: '',
  color: '#1565c0',
  agentId: null,
  allowedOrigins: '',
  welcome: '',
  identity: 'anonymous',
  messagesPerMinute: 10,
  messagesPerDay: 200,
  allowAttachments: false,
  active: true,
};

const bodyOf = (v: Values) => ({
  displayName: v.displayName,
  color: v.color,
  agentId: v.agentId,
  allowedOrigins: v.allowedOrigins
    .split(/\s+/)
    .map((o) => o.trim())
    .filter(Boolean),
  welcome: v.welcome,
  identity: v.identity,
  limits: { messagesPerMinute: Number(v.messagesPerMinute), messagesPerDay: Number(v.messagesPerDay) },
  allowAttachments: v.allowAttachments,
  active: v.active,
});

/** The schema's issue paths as the form's fields (`limits.messagesPerDay` → `messagesPerDay`, …). */
function fieldErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = path.startsWith('allowedOrigins') ? 'allowedOrigins' : (path.split('.').pop() ?? path);
    out[field] ??= message;
  }
  return out;
}

/** Creates an embed (its secret is shown once, by the caller) or edits one. */
export function EmbedDialog({
  opened,
  embed,
  onClose,
  onCreated,
}: {
  opened: boolean;
  /** The embed to edit; null creates one. */
  embed: VirtualAccount | null;
  onClose: () => void;
  onCreated: (created: VirtualAccountWithSecret) => void;
}) {
  const { t } = useTranslation();
  const { failure, clear, fail } = useSubmitFailure();
  const create = useCreateEmbed();
  const update = useUpdateEmbed();
  const santitos = useSantitos('', opened);
  const pending = create.isPending || update.isPending;
  const schema = embed ? VirtualAccountUpdateSchema : VirtualAccountCreateSchema;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: emptyValues,
    validate: (values) => fieldErrors(schemaErrors(schema, bodyOf(values), t)),
  });

  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!opened) return;
    const values: Values = embed
      ? {
          displayName: embed.displayName,
          color: embed.color,
          agentId: embed.agentId,
          allowedOrigins: embed.allowedOrigins.join('\n'),
          welcome: embed.welcome,
          identity: embed.identity,
          messagesPerMinute: embed.limits.messagesPerMinute,
          messagesPerDay: embed.limits.messagesPerDay,
          allowAttachments: embed.allowAttachments,
          active: embed.active,
        }
      : emptyValues;
    setValues(values);
    resetDirty(values);
    clear();
  }, [opened, embed, setValues, resetDirty, clear]);

  const santitoItems = (santitos.data?.pages ?? []).flatMap((p) => p.items);
  const santitoOptions = santitoItems.map((s) => ({ value: s._id, label: s.name }));
  // The preview's santito: from the list, or (further down a long list) asked for on its own.
  const { agentId } = form.values;
  const listed = santitoItems.find((s) => s._id === agentId);
  const fetched = useSantito(listed ? null : agentId, opened).data;
  const santito = listed ?? (fetched?._id === agentId ? fetched : null) ?? null;
  const previewTitle = useId();

  const submit = form.onSubmit(async (values) => {
    clear();
    try {
      if (embed) {
        const parsed = validateWith(VirtualAccountUpdateSchema, bodyOf(values), t);
        if (!parsed.ok) return;
        await update.mutateAsync({ id: embed.virtualAccountId, body: parsed.data });
        onClose();
      } else {
        const parsed = validateWith(VirtualAccountCreateSchema, bodyOf(values), t);
        if (!parsed.ok) return;
        onCreated(await create.mutateAsync(parsed.data));
      }
    } catch (error) {
      fail(error);
    }
  });

  return (
    <FormDialog
      opened={opened}
      title={t(embed ? 'embeds.edit_title' : 'embeds.create_title')}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      failure={failure}
      submitLabel={t(embed ? 'common.save' : 'common.create')}
      size={1040}
      aside={
        <section aria-labelledby={previewTitle}>
          <Text size="sm" fw={600} id={previewTitle}>
            {t('embeds.preview.title')}
          </Text>
          <Text size="xs" c="dimmed" mb={6}>
            {t('embeds.preview.hint')}
          </Text>
          <EmbeddedPreview
            displayName={form.values.displayName}
            color={form.values.color}
            welcome={form.values.welcome}
            santito={santito}
            allowAttachments={form.values.allowAttachments}
          />
        </section>
      }
    >
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextInput
            label={t('embeds.fields.name')}
            required
            data-autofocus
            {...form.getInputProps('displayName')}
          />
          <ColorInput
            label={t('embeds.fields.color')}
            format="hex"
            withEyeDropper={false}
            {...form.getInputProps('color')}
          />
        </Group>
        <Select
          label={t('embeds.fields.santito')}
          description={t('embeds.fields.santito_hint')}
          data={santitoOptions}
          clearable
          searchable
          placeholder={t('embeds.fields.santito_default')}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('agentId')}
        />
        <Textarea
          label={t('embeds.fields.origins')}
          description={t('embeds.fields.origins_hint')}
          placeholder="https://shop.example.com"
          autosize
          minRows={2}
          {...form.getInputProps('allowedOrigins')}
        />
        <Textarea
          label={t('embeds.fields.welcome')}
          autosize
          minRows={2}
          {...form.getInputProps('welcome')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('embeds.fields.identity')}
          </Text>
          <SegmentedControl
            data={[
              { value: 'anonymous', label: t('embeds.identity.anonymous') },
              { value: 'signed', label: t('embeds.identity.signed') },
            ]}
            {...form.getInputProps('identity')}
          />
          <Text size="xs" c="dimmed">
            {t(
              form.values.identity === 'signed'
                ? 'embeds.identity.signed_hint'
                : 'embeds.identity.anonymous_hint',
            )}
          </Text>
        </Stack>
        <Group grow align="flex-start">
          <NumberInput
            label={t('embeds.fields.per_minute')}
            min={1}
            max={600}
            {...form.getInputProps('messagesPerMinute')}
          />
          <NumberInput
            label={t('embeds.fields.per_day')}
            min={1}
            max={100000}
            {...form.getInputProps('messagesPerDay')}
          />
        </Group>
        <Switch
          label={t('embeds.fields.attachments')}
          {...form.getInputProps('allowAttachments', { type: 'checkbox' })}
        />
        <Switch label={t('embeds.fields.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
      </Stack>
    </FormDialog>
  );
}
