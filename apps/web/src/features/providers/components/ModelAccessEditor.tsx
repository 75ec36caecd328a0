import { type ModelAccess, type ModelAccessRule, ModelAccessSchema, Roles } from '@assistente/contracts';
import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useAccountSession } from '../../auth/index.ts';
import { useDepartmentOptions } from '../../departments/index.ts';
import { useModelAccess, useModels, useSaveModelAccess } from '../hooks/useProviders.ts';
import { accessModelOptions, sameAccess } from '../lib/access.ts';

/**
 * Who of the domain may use which model: rules that keep a model (or a provider's, `provider:*`) for
 * some roles or departments, and what a model no rule names follows. Applied to every model list
 * and every path (chat, santitos, `/v1`).
 */
export function ModelAccessEditor() {
  const { t } = useTranslation();
  const popup = usePopup();
  const access = useModelAccess();
  const models = useModels();
  const save = useSaveModelAccess();
  const { apiUser } = useAccountSession();
  const departments = useDepartmentOptions(apiUser?.domain ?? null, Boolean(apiUser));
  const [draft, setDraft] = useState<ModelAccess | null>(null);
  // Rules have no id of their own: each row gets a key while it is edited.
  const [keys, setKeys] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!access.data) return;
    setDraft(access.data);
    setKeys(access.data.rules.map(() => crypto.randomUUID()));
  }, [access.data]);

  const modelOptions = useMemo(
    () =>
      accessModelOptions(
        (models.data?.models ?? []).map((m) => m.id),
        draft?.rules ?? [],
      ),
    [models.data, draft],
  );
  const departmentOptions = (departments.data ?? []).map((d) => ({ value: d._id, label: d.displayName }));

  if (access.isPending || !draft) return <ListSkeleton label={t('app.loading')} rows={2} />;
  if (access.isError) return <LoadError title={t('providers.access.load_failed')} query={access} />;

  const dirty = !sameAccess(draft, access.data);
  const setRule = (i: number, rule: ModelAccessRule) =>
    setDraft({ ...draft, rules: draft.rules.map((r, j) => (j === i ? rule : r)) });

  const submit = () => {
    const parsed = ModelAccessSchema.safeParse(draft);
    if (!parsed.success) {
      setProblem(t('providers.access.invalid'));
      return;
    }
    setProblem(null);
    save.mutate(parsed.data, {
      onSuccess: () => void popup.show({ status: 'success', title: t('providers.access.saved') }),
      onError: (error) => setProblem(apiErrorText(t, error)),
    });
  };

  return (
    <Paper withBorder radius="lg" p="md" data-testid="model-access">
      <Stack gap="md">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconLock size={20} stroke={1.7} />
          <div>
            <Text fw={600}>{t('providers.access.title')}</Text>
            <Text size="sm" c="dimmed">
              {t('providers.access.description')}
            </Text>
          </div>
        </Group>
        {draft.rules.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="model-access-empty">
            {t('providers.access.empty')}
          </Text>
        ) : (
          draft.rules.map((rule, i) => (
            <Paper key={keys[i] ?? rule.model} withBorder radius="md" p="sm" data-testid="model-access-rule">
              <Stack gap="xs">
                <Group gap="xs" wrap="nowrap" align="flex-end">
                  <Autocomplete
                    style={{ flex: 1, minWidth: 0 }}
                    label={t('providers.access.model')}
                    description={t('providers.access.model_hint')}
                    data={modelOptions}
                    value={rule.model}
                    onChange={(model) => setRule(i, { ...rule, model })}
                    data-testid="model-access-model"
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('providers.access.remove_rule', { model: rule.model || '…' })}
                    onClick={() => {
                      setDraft({ ...draft, rules: draft.rules.filter((_, j) => j !== i) });
                      setKeys(keys.filter((_, j) => j !== i));
                    }}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Group>
                <MultiSelect
                  label={t('providers.access.roles')}
                  data={Roles.filter((r) => r !== 'SuperAdmin').map((r) => ({
                    value: r,
                    label: t(`roles.${r}`),
                  }))}
                  value={rule.roles ?? []}
                  onChange={(roles) =>
                    setRule(i, {
                      ...rule,
                      roles: roles.length ? (roles as ModelAccessRule['roles']) : undefined,
                    })
                  }
                  data-testid="model-access-roles"
                />
                <MultiSelect
                  label={t('providers.access.departments')}
                  data={departmentOptions}
                  searchable
                  value={rule.departments ?? []}
                  onChange={(ids) => setRule(i, { ...rule, departments: ids.length ? ids : undefined })}
                  data-testid="model-access-departments"
                />
                {!rule.roles?.length && !rule.departments?.length ? (
                  <Text size="xs" c="orange.8">
                    {t('providers.access.nobody')}
                  </Text>
                ) : null}
              </Stack>
            </Paper>
          ))
        )}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => {
            setDraft({ ...draft, rules: [...draft.rules, { model: '', roles: ['Admin'] }] });
            setKeys([...keys, crypto.randomUUID()]);
          }}
          style={{ alignSelf: 'flex-start' }}
          data-testid="model-access-add"
        >
          {t('providers.access.add_rule')}
        </Button>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="model-access-default">
            {t('providers.access.default')}
          </Text>
          <SegmentedControl
            aria-labelledby="model-access-default"
            value={draft.default}
            onChange={(value) => setDraft({ ...draft, default: value as ModelAccess['default'] })}
            data={[
              { value: 'allow', label: t('providers.access.default_allow') },
              { value: 'deny', label: t('providers.access.default_deny') },
            ]}
            data-testid="model-access-default"
          />
        </Stack>
        {problem ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {problem}
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button onClick={submit} loading={save.isPending} disabled={!dirty} data-testid="model-access-save">
            {t('common.save')}
          </Button>
          {dirty ? (
            <>
              <Button
                variant="subtle"
                onClick={() => {
                  setDraft(access.data);
                  setKeys(access.data.rules.map(() => crypto.randomUUID()));
                }}
              >
                {t('providers.access.discard')}
              </Button>
              <Text size="sm" c="orange.8" data-testid="model-access-unsaved">
                {t('providers.access.unsaved')}
              </Text>
            </>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
