import {
  AvatarTypes,
  type Department,
  EmojiSchema,
  modelDisplayName,
  type Santito,
  type SantitoCreate,
  type SantitoKnowledge,
  SantitoLimits,
  type SantitoUpdate,
  type SantitoVisibility,
} from '@assistente/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPhotoUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { authorizedRequest, authServices } from '../../auth/index.ts';
import { KnowledgePicker } from '../../knowledge/index.ts';
import { ToolPicker } from '../../mcp/index.ts';
import { providerName, useModels } from '../../providers/index.ts';
import { santitoAvatarPath } from '../api.ts';
import { santitoKeys, useSaveSantito } from '../hooks/useSantitos.ts';

export interface SantitoFormProps {
  /** null: a new santito. */
  santito: Santito | null;
  onDone: (santito: Santito) => void;
  onCancel: () => void;
}

/** Uploads an avatar image (multipart) and answers the updated santito. */
async function uploadAvatar(id: string, file: File): Promise<void> {
  const { url, headers } = await authorizedRequest(santitoAvatarPath(id), 'accounts');
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, Accept: 'application/json' },
    body: form,
  });
  if (!response.ok) throw new Error(`Avatar upload failed with status ${response.status}`);
}

/** Create or edit a santito: name, avatar, description, instructions, model, starters, visibility. */
export default function SantitoForm({ santito, onDone, onCancel }: SantitoFormProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const save = useSaveSantito();
  const models = useModels();
  const departments = useQuery({
    queryKey: ['departments', 'for-santitos'],
    queryFn: (): Promise<Department[]> => authServices().accountApi.listDepartments(),
    staleTime: 5 * 60_000,
  });

  const [name, setName] = useState(santito?.name ?? '');
  const [avatar, setAvatar] = useState(santito?.avatar ?? '');
  const [avatarTouched, setAvatarTouched] = useState(false);
  const [avatarFile, setAvatarFile] = useState<File | null>(null);
  const [description, setDescription] = useState(santito?.description ?? '');
  const [instructions, setInstructions] = useState(santito?.instructions ?? '');
  const [model, setModel] = useState<string | null>(santito?.model ?? null);
  const [starters, setStarters] = useState<string[]>(santito?.starters ?? []);
  const [knowledge, setKnowledge] = useState<SantitoKnowledge[]>(santito?.knowledge ?? []);
  const [tools, setTools] = useState<string[]>(santito?.tools ?? []);
  const [maxSteps, setMaxSteps] = useState<number | string>(
    santito?.maxSteps ?? SantitoLimits.defaultMaxSteps,
  );
  const [visibility, setVisibility] = useState<SantitoVisibility>(santito?.visibility ?? 'domain');
  const [departmentId, setDepartmentId] = useState<string | null>(santito?.departmentId ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);

  const validate = (): boolean => {
    const next: Record<string, string> = {};
    if (!name.trim()) next.name = t('santitos.form.name_required');
    if (avatar.trim() && !EmojiSchema.safeParse(avatar.trim()).success)
      next.avatar = t('santitos.form.avatar_invalid');
    if (visibility === 'department' && !departmentId)
      next.departmentId = t('santitos.form.department_required');
    if (
      typeof maxSteps !== 'number' ||
      !Number.isInteger(maxSteps) ||
      maxSteps < 1 ||
      maxSteps > SantitoLimits.maxSteps
    )
      next.maxSteps = t('santitos.form.max_steps_invalid');
    if (avatarFile && avatarFile.size > SantitoLimits.avatarMaxBytes)
      next.avatarFile = t('santitos.form.avatar_too_large');
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const submit = () => {
    setFailure(null);
    if (!validate()) return;
    const cleanStarters = starters.map((s) => s.trim()).filter(Boolean);
    const fields = {
      name: name.trim(),
      description: description.trim(),
      instructions,
      model,
      starters: cleanStarters,
      knowledge,
      tools,
      maxSteps: Number(maxSteps),
      visibility,
      departmentId: visibility === 'department' ? departmentId : null,
    };
    const emoji = avatar.trim() || null;
    const input: { id: null; body: SantitoCreate } | { id: string; body: SantitoUpdate } = santito
      ? { id: santito._id, body: { ...fields, ...(avatarTouched || avatarFile ? { avatar: emoji } : {}) } }
      : { id: null, body: { ...fields, avatar: emoji } };
    save.mutate(input, {
      onSuccess: async (saved) => {
        if (!avatarFile || emoji) {
          onDone(saved);
          return;
        }
        setUploading(true);
        try {
          await uploadAvatar(saved._id, avatarFile);
          await client.invalidateQueries({ queryKey: santitoKeys.all });
          onDone(saved);
        } catch (error) {
          setFailure(errorMessage(error, t('santitos.form.avatar_failed')));
        } finally {
          setUploading(false);
        }
      },
      onError: (error) => setFailure(errorMessage(error, t('http.fallback_error'))),
    });
  };

  const modelOptions = [
    { value: '', label: t('santitos.form.default_model') },
    ...(models.data?.models ?? []).map((m) => ({
      value: m.id,
      label: modelDisplayName(m.id, providerName(t, m)),
    })),
  ];
  if (model && !modelOptions.some((o) => o.value === model))
    modelOptions.push({ value: model, label: modelDisplayName(model) });

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      noValidate
    >
      <Stack gap="md">
        {failure ? (
          <Alert color="error" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <TextInput
          label={t('santitos.form.name')}
          required
          maxLength={80}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          data-autofocus
        />
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('santitos.form.avatar')}
            description={t('santitos.form.avatar_hint')}
            value={avatar}
            maxLength={32}
            onChange={(e) => {
              setAvatar(e.currentTarget.value);
              setAvatarTouched(true);
            }}
            error={errors.avatar}
            w={200}
          />
          <FileButton
            accept={AvatarTypes.join(',')}
            onChange={(file) => {
              setAvatarFile(file);
              if (file) {
                setAvatar('');
                setAvatarTouched(true);
              }
            }}
          >
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconPhotoUp size={16} />}>
                {avatarFile ? avatarFile.name : t('santitos.form.avatar_upload')}
              </Button>
            )}
          </FileButton>
        </Group>
        {errors.avatarFile ? (
          <Text size="xs" c="error.7" role="alert">
            {errors.avatarFile}
          </Text>
        ) : null}
        <Textarea
          label={t('santitos.form.description')}
          maxLength={500}
          autosize
          minRows={2}
          maxRows={4}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Textarea
          label={t('santitos.form.instructions')}
          description={t('santitos.form.instructions_hint')}
          maxLength={20_000}
          autosize
          minRows={4}
          maxRows={12}
          value={instructions}
          onChange={(e) => setInstructions(e.currentTarget.value)}
        />
        <Select
          label={t('santitos.form.model')}
          data={modelOptions}
          value={model ?? ''}
          onChange={(v) => setModel(v ? v : null)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('santitos.form.starters')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('santitos.form.starters_hint')}
          </Text>
          {starters.map((starter, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is edited in place
            <Group key={i} gap="xs" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                maxLength={300}
                value={starter}
                aria-label={t('santitos.form.starter_label', { n: String(i + 1) })}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setStarters((list) => list.map((s, j) => (j === i ? value : s)));
                }}
              />
              <ActionIcon
                variant="subtle"
                color="error"
                onClick={() => setStarters((list) => list.filter((_, j) => j !== i))}
                aria-label={t('santitos.form.remove_starter')}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {starters.length < SantitoLimits.starters ? (
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setStarters((list) => [...list, ''])}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('santitos.form.add_starter')}
            </Button>
          ) : null}
        </Stack>
        <KnowledgePicker value={knowledge} onChange={setKnowledge} />
        <ToolPicker value={tools} onChange={setTools} />
        <NumberInput
          label={t('santitos.form.max_steps')}
          description={t('santitos.form.max_steps_hint')}
          min={1}
          max={SantitoLimits.maxSteps}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          value={maxSteps}
          onChange={setMaxSteps}
          error={errors.maxSteps}
          w={200}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500} id="santito-visibility">
            {t('santitos.form.visibility')}
          </Text>
          <SegmentedControl
            aria-labelledby="santito-visibility"
            value={visibility}
            onChange={(v) => setVisibility(v === 'department' ? 'department' : 'domain')}
            data={[
              { value: 'domain', label: t('santitos.visibility.domain') },
              { value: 'department', label: t('santitos.visibility.department') },
            ]}
          />
          {visibility === 'department' ? (
            <Select
              label={t('santitos.form.department')}
              data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.displayName || d._id }))}
              value={departmentId}
              onChange={setDepartmentId}
              error={errors.departmentId}
              searchable
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('chats.message.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending || uploading}>
            {santito ? t('santitos.form.save') : t('santitos.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
