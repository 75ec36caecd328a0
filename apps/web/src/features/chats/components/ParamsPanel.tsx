import { type ChatParams, type ModelInfo, modelDisplayName } from '@assistente/contracts';
import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Select,
  Slider,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { type TFunction, useTranslation } from '../../../lib/i18n/index.ts';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import { providerName, useModels } from '../../providers/index.ts';
import { useSaveChatParams } from '../hooks/useChat.ts';

const DEFAULT_TEMPERATURE = 0.7;

export interface ParamsPanelProps {
  /** null: a chat not made yet; the parameters go with its first message. */
  chatId: string | null;
  params: ChatParams;
  /** For a new chat: keeps the draft. */
  onDraftChange?: (params: ChatParams) => void;
  onClose: () => void;
}

function groupModels(t: TFunction, models: ModelInfo[]) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const model of models) {
    const group = providerName(t, model);
    const list = groups.get(group) ?? [];
    list.push({ value: model.id, label: model.name });
    groups.set(group, list);
  }
  return [...groups].map(([group, items]) => ({ group, items }));
}

/** The open chat's parameters (customParamsSidebar): model, temperature, answer length, instructions. */
export default function ParamsPanel({ chatId, params, onDraftChange, onClose }: ParamsPanelProps) {
  const { t } = useTranslation();
  const models = useModels();
  const save = useSaveChatParams(chatId ?? '');
  const [model, setModel] = useState<string | null>(params.model ?? null);
  const [customTemperature, setCustomTemperature] = useState(params.temperature !== undefined);
  const [temperature, setTemperature] = useState(params.temperature ?? DEFAULT_TEMPERATURE);
  const [maxTokens, setMaxTokens] = useState<number | ''>(params.maxTokens ?? '');
  const [instructions, setInstructions] = useState(params.instructions ?? '');
  const [saved, setSaved] = useState(false);

  // Another chat opened, or the saved record changed: start from it.
  useEffect(() => {
    setModel(params.model ?? null);
    setCustomTemperature(params.temperature !== undefined);
    setTemperature(params.temperature ?? DEFAULT_TEMPERATURE);
    setMaxTokens(params.maxTokens ?? '');
    setInstructions(params.instructions ?? '');
  }, [params]);

  const value: ChatParams = useMemo(
    () => ({
      ...(model ? { model } : {}),
      ...(customTemperature ? { temperature: Math.round(temperature * 100) / 100 } : {}),
      ...(typeof maxTokens === 'number' ? { maxTokens } : {}),
      ...(instructions.trim() ? { instructions } : {}),
    }),
    [model, customTemperature, temperature, maxTokens, instructions],
  );

  useEffect(() => {
    if (chatId === null) onDraftChange?.(value);
  }, [chatId, value, onDraftChange]);

  const defaultModel = models.data?.defaultModel ?? null;
  // The model's own name: the raw `provider:model` id made the placeholder too long to read.
  const defaultModelName = defaultModel
    ? (models.data?.models.find((m) => m.id === defaultModel)?.name ?? modelDisplayName(defaultModel))
    : null;
  const options = groupModels(t, models.data?.models ?? []);
  const known = new Set((models.data?.models ?? []).map((m) => m.id));
  if (model && !known.has(model))
    options.push({
      group: t('chats.params.other_model'),
      items: [{ value: model, label: modelDisplayName(model) }],
    });

  return (
    <Stack gap="md" p="md" data-testid="params-panel">
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} size="h5">
          {t('chats.params.title')}
        </Title>
        <Tooltip label={t('popup.close')} withArrow>
          <ActionIcon variant="subtle" color="neutral.6" onClick={onClose} aria-label={t('popup.close')}>
            <IconX size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Select
        label={t('chats.params.model')}
        description={t('chats.params.model_hint')}
        placeholder={
          defaultModelName
            ? t('chats.params.default_model', { model: defaultModelName })
            : t('chats.params.no_default_model')
        }
        data={options}
        value={model}
        onChange={setModel}
        clearable
        searchable
        nothingFoundMessage={t('chats.params.no_models')}
        disabled={models.isPending}
        comboboxProps={{ withinPortal: true }}
      />
      <Stack gap={6}>
        <Switch
          label={t('chats.params.custom_temperature')}
          checked={customTemperature}
          onChange={(e) => setCustomTemperature(e.currentTarget.checked)}
        />
        <Text size="xs" c="dimmed">
          {t('chats.params.temperature_hint')}
        </Text>
        <Slider
          min={0}
          max={2}
          step={0.1}
          value={temperature}
          onChange={setTemperature}
          disabled={!customTemperature}
          label={(v) => v.toFixed(1)}
          marks={[
            { value: 0, label: '0' },
            { value: 1, label: '1' },
            { value: 2, label: '2' },
          ]}
          aria-label={t('chats.params.temperature')}
          mb="md"
        />
      </Stack>
      <NumberInput
        label={t('chats.params.max_tokens')}
        description={t('chats.params.max_tokens_hint')}
        min={1}
        max={1_000_000}
        step={256}
        allowDecimal={false}
        value={maxTokens}
        onChange={(v) => setMaxTokens(typeof v === 'number' ? v : '')}
        placeholder={t('chats.params.automatic')}
      />
      <Textarea
        label={t('chats.params.instructions')}
        description={t('chats.params.instructions_hint')}
        autosize
        minRows={3}
        maxRows={10}
        maxLength={20_000}
        value={instructions}
        onChange={(e) => setInstructions(e.currentTarget.value)}
      />
      {chatId !== null ? (
        <Group justify="flex-end" gap="xs">
          {saved && !save.isPending ? (
            <Text size="xs" c="dimmed" role="status">
              {t('chats.params.saved')}
            </Text>
          ) : null}
          {save.isError ? (
            <Text size="xs" c="error.7" role="alert">
              {t('chats.params.save_error')}
            </Text>
          ) : null}
          <Button
            loading={save.isPending}
            onClick={() => {
              setSaved(false);
              save.mutate(Object.keys(value).length > 0 ? value : null, { onSuccess: () => setSaved(true) });
            }}
          >
            {t('chats.params.save')}
          </Button>
        </Group>
      ) : (
        <Text size="xs" c="dimmed">
          {t('chats.params.new_chat_hint')}
        </Text>
      )}
    </Stack>
  );
}
