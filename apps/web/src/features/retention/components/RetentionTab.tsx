import { type RetentionSettings, type RetentionView, spansDomains, type User } from '@assistente/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Divider,
  Group,
  List,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useDepartmentOptions } from '../../departments/index.ts';
import { DomainSelect } from '../../domains/index.ts';
import { RETENTION_JOB, RunJobButton, RunSummary } from '../../jobs/index.ts';
import { useRefreshRetentionView, useRetentionView, useSaveRetention } from '../hooks/useRetention.ts';
import {
  type Days,
  deletesMore,
  newRowKey,
  PERIOD_FIELDS,
  type PeriodField,
  type RetentionForm,
  serverFieldErrors,
  toForm,
  toSettings,
  validateForm,
} from '../internal/rules.ts';

const FIELD_KEYS: Record<PeriodField, string> = {
  chatsDays: 'chats',
  filesDays: 'files',
  visitorChatsDays: 'visitor_chats',
  apiLogsDays: 'api_logs',
};

/**
 * Settings → Retenção (Admin+): how long the domain keeps chats, files, visitors' chats and the API
 * log, stricter rules for departments, and the retention job's last and next run; a SuperAdmin
 * picks the domain and may run the job now (docs/ARCHITECTURE.md#governance).
 */
export function RetentionTab({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const superAdmin = spansDomains(caller);
  const [domain, setDomain] = useState(caller.domain);
  const view = useRetentionView(domain);

  return (
    <Stack gap="lg" data-testid="retention-tab">
      <Stack gap={4}>
        <Title order={2} size="h4">
          {t('retention.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('retention.description')}
        </Text>
      </Stack>
      {superAdmin ? (
        <DomainSelect
          label={t('users.fields.domain')}
          value={domain}
          w={320}
          onChange={(next) => next && setDomain(next)}
        />
      ) : null}
      {view.isPending ? (
        <ListSkeleton rows={3} height={72} label={t('app.loading')} />
      ) : view.isError ? (
        <LoadError title={t('retention.load_failed')} query={view} />
      ) : (
        <>
          <RunPanel domain={domain} view={view.data} canRun={superAdmin} />
          <RetentionEditor
            // A saved rule (or another domain) starts the form afresh; a poll that changed nothing does not.
            key={`${domain}:${JSON.stringify(view.data.settings)}`}
            domain={domain}
            saved={view.data.settings}
          />
        </>
      )}
    </Stack>
  );
}

/** The retention job as this domain sees it: when it runs next, what its last run did. */
function RunPanel({ domain, view, canRun }: { domain: string; view: RetentionView; canRun: boolean }) {
  const { t, i18n } = useTranslation();
  const refresh = useRefreshRetentionView();
  return (
    <Card withBorder radius="md" padding="md" data-testid="retention-run">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={6} style={{ flex: '1 1 16rem', minWidth: 0 }}>
          <Text size="sm" data-testid="retention-next-run">
            {view.nextRunAt
              ? t('jobs.next_run', { at: formatDateTime(view.nextRunAt, i18n.language) })
              : t('jobs.next_run_none')}
          </Text>
          <Text size="sm" fw={600}>
            {t('retention.last_run')}
          </Text>
          <RunSummary run={view.lastRun} />
        </Stack>
        {canRun ? (
          <RunJobButton
            name={RETENTION_JOB}
            running={view.lastRun?.status === 'running'}
            onStarted={() => void refresh(domain)}
          />
        ) : null}
      </Group>
    </Card>
  );
}

/** The rule's form, started from the saved rule; saving a rule that deletes more asks first. */
function RetentionEditor({ domain, saved }: { domain: string; saved: RetentionSettings }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const save = useSaveRetention();
  const departments = useDepartmentOptions(domain);
  const [confirming, setConfirming] = useState<{ body: RetentionSettings; lines: string[] } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RetentionForm>({
    mode: 'controlled',
    initialValues: toForm(saved),
    validate: (values) => validateForm(values, t),
  });

  const names = new Map((departments.data ?? []).map((d) => [d._id, d.displayName]));
  const departmentName = (id: string) => names.get(id) ?? id;
  const domainChats = form.values.chatsDays;

  const store = async (body: RetentionSettings) => {
    setFailure(null);
    try {
      await save.mutateAsync({ domain, body });
      setConfirming(null);
      void popup.show({ status: 'success', title: t('retention.saved') });
    } catch (error) {
      const fields = serverFieldErrors(error, form.values, t);
      if (fields) {
        setConfirming(null);
        form.setErrors(fields);
        if (fields._form) setFailure(fields._form);
      } else {
        // Shown in the confirmation while it is open, else above the button.
        setFailure(apiErrorText(t, error));
      }
    }
  };

  const submit = form.onSubmit((values) => {
    const body = toSettings(values);
    const lines = deletesMore(saved, body, t, departmentName);
    if (lines.length > 0) {
      setFailure(null);
      setConfirming({ body, lines });
    } else void store(body);
  });

  const chosen = new Set(form.values.departments.map((rule) => rule.id));
  const optionsFor = (own: string) => [
    // A rule kept for a department since deleted still shows what it was.
    ...(own && departments.isSuccess && !names.has(own) ? [{ value: own, label: own }] : []),
    ...(departments.data ?? [])
      .filter((d) => d._id === own || !chosen.has(d._id))
      .map((d) => ({ value: d._id, label: d.displayName })),
  ];

  const daysInput = (field: PeriodField) => {
    const key = FIELD_KEYS[field];
    return (
      <NumberInput
        key={field}
        label={t(`retention.fields.${key}`)}
        description={t(`retention.fields.${key}_hint`)}
        placeholder={t('retention.keep_forever')}
        min={1}
        max={3650}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        hideControls
        rightSection={<DaysUnit />}
        rightSectionWidth={52}
        data-testid={`retention-${key}`}
        {...form.getInputProps(field)}
      />
    );
  };

  return (
    <>
      <form onSubmit={submit} noValidate data-testid="retention-form">
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            {PERIOD_FIELDS.map(daysInput)}
          </SimpleGrid>
          <Switch
            label={t('retention.fields.exempt_pinned')}
            description={t('retention.fields.exempt_pinned_hint')}
            data-testid="retention-exempt-pinned"
            {...form.getInputProps('exemptPinned', { type: 'checkbox' })}
          />
          <Divider />
          <Stack gap="xs" data-testid="retention-departments">
            <Text fw={600}>{t('retention.departments.title')}</Text>
            <Text size="sm" c="dimmed">
              {domainChats === ''
                ? t('retention.departments.hint_any')
                : t('retention.departments.hint', { count: domainChats })}
            </Text>
            {form.values.departments.map((rule, i) => (
              <Group
                key={rule.key}
                gap="xs"
                align="flex-start"
                wrap="nowrap"
                data-testid="retention-department"
              >
                <Select
                  aria-label={t('retention.departments.department')}
                  placeholder={t('retention.departments.pick')}
                  data={optionsFor(rule.id)}
                  searchable
                  allowDeselect={false}
                  nothingFoundMessage={t('common.nothing_found')}
                  style={{ flex: 1, minWidth: 0 }}
                  {...form.getInputProps(`departments.${i}.id`)}
                />
                <NumberInput
                  aria-label={t('retention.departments.days', {
                    department: rule.id ? departmentName(rule.id) : '',
                  })}
                  placeholder={t('retention.departments.days_placeholder')}
                  min={1}
                  max={3650}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  hideControls
                  w={120}
                  rightSection={<DaysUnit />}
                  rightSectionWidth={52}
                  {...form.getInputProps(`departments.${i}.days`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="neutral.6"
                  size="lg"
                  mt={2}
                  aria-label={t('retention.departments.remove', {
                    department: rule.id ? departmentName(rule.id) : '',
                  })}
                  onClick={() => form.removeListItem('departments', i)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            <Group>
              <Button
                variant="subtle"
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() =>
                  form.insertListItem('departments', { key: newRowKey(), id: '', days: '' as Days })
                }
                data-testid="retention-add-department"
              >
                {t('retention.departments.add')}
              </Button>
            </Group>
          </Stack>
          {failure && !confirming ? (
            <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={save.isPending && !confirming} data-testid="retention-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      {/* Outside the form: the dialog's own submit would bubble to it through the portal. */}
      <ConfirmDialog
        opened={confirming !== null}
        title={t('retention.confirm.title')}
        message={t('retention.confirm.message')}
        confirmLabel={t('retention.confirm.save')}
        cancelLabel={t('common.cancel')}
        loading={save.isPending}
        error={confirming ? failure : null}
        onConfirm={() => confirming && void store(confirming.body)}
        onClose={() => setConfirming(null)}
      >
        <List size="sm" spacing={4} data-testid="retention-confirm-lines">
          {confirming?.lines.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      </ConfirmDialog>
    </>
  );
}

function DaysUnit() {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed" pr={4}>
      {t('retention.days_unit')}
    </Text>
  );
}
