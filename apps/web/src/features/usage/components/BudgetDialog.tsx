import {
  type Budget,
  type BudgetInput,
  type BudgetPeriod,
  BudgetPeriods,
  toMicros,
} from '@assistente/contracts';
import { NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useDepartmentOptions } from '../../departments/index.ts';
import { useUserList } from '../../users/index.ts';
import { useSaveBudget } from '../hooks/useUsage.ts';
import { limitDollars } from '../lib/budgets.ts';

type ScopeKind = Budget['scope']['kind'];

export interface BudgetValues {
  kind: ScopeKind;
  departmentId: string | null;
  userId: string | null;
  period: BudgetPeriod;
  dollars: number | '';
  tokens: number | '';
  warnAtPercent: number | '';
}

export const emptyBudgetValues: BudgetValues = {
  kind: 'domain',
  departmentId: null,
  userId: null,
  period: 'month',
  dollars: '',
  tokens: '',
  warnAtPercent: 80,
};

function valuesOf(budget: Budget): BudgetValues {
  return {
    kind: budget.scope.kind,
    departmentId: budget.scope.kind === 'department' ? budget.scope.departmentId : null,
    userId: budget.scope.kind === 'user' ? budget.scope.userId : null,
    period: budget.period,
    dollars: limitDollars(budget.limit),
    tokens: budget.limit.tokens ?? '',
    warnAtPercent: budget.warnAtPercent,
  };
}

/** Creates a budget for `domain`, or changes `budget`: its scope, period, limits and warning. */
export function BudgetDialog({
  opened,
  budget,
  domain,
  onClose,
  onSaved,
}: {
  opened: boolean;
  /** The budget to change; null creates one. */
  budget: Budget | null;
  domain: string;
  onClose: () => void;
  onSaved: (budget: Budget, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const { failure, clear, fail } = useSubmitFailure();
  const save = useSaveBudget();
  const [values, setValues] = useState<BudgetValues>(emptyBudgetValues);
  const [problem, setProblem] = useState<string | null>(null);
  const set = <K extends keyof BudgetValues>(key: K, value: BudgetValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  useEffect(() => {
    if (!opened) return;
    setValues(budget ? valuesOf(budget) : emptyBudgetValues);
    setPicked(null);
    setUserSearch('');
    setProblem(null);
    clear();
  }, [opened, budget, clear]);

  const departments = useDepartmentOptions(domain, opened && values.kind === 'department');
  const [userSearch, setUserSearch] = useState('');
  // The person picked: still an option once the search (now their label) lists nobody else.
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const [debounced] = useDebouncedValue(userSearch.trim(), 250);
  const q = picked && debounced === picked.label ? '' : debounced;
  const users = useUserList({ q, sort: 'displayName', order: 'asc', domain, limit: 20 });
  const userOptions = useMemo(() => {
    const loaded = (users.data?.pages ?? []).flatMap((page) => page.items);
    const options = loaded.map((u) => ({ value: u._id, label: `${u.displayName} · ${u.email}` }));
    // The budget's own person stays choosable even when the search does not list them.
    const own = budget?.scope.kind === 'user' ? budget.scope.userId : null;
    if (budget && own && !options.some((o) => o.value === own))
      options.unshift({ value: own, label: budget.scopeLabel });
    if (picked && !options.some((o) => o.value === picked.value)) options.unshift(picked);
    return options;
  }, [users.data, budget, picked]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    const input = toInput(values, domain);
    if (typeof input === 'string') {
      setProblem(t(`usage.budgets.problems.${input}`));
      return;
    }
    setProblem(null);
    try {
      const saved = await save.mutateAsync({ id: budget?.id ?? null, body: input });
      onSaved(saved, budget === null);
    } catch (error) {
      fail(error, () => setProblem(t('usage.budgets.problems.taken')));
    }
  };

  return (
    <FormDialog
      opened={opened}
      title={t(budget ? 'usage.budgets.edit_title' : 'usage.budgets.create_title')}
      onClose={onClose}
      onSubmit={submit}
      pending={save.isPending}
      failure={failure}
      submitLabel={t(budget ? 'common.save' : 'common.create')}
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="budget-scope-label">
            {t('usage.budgets.fields.scope')}
          </Text>
          <SegmentedControl
            aria-labelledby="budget-scope-label"
            fullWidth
            value={values.kind}
            onChange={(kind) => set('kind', kind as ScopeKind)}
            data={(['domain', 'department', 'user'] as const).map((kind) => ({
              value: kind,
              label: t(`usage.budgets.scopes.${kind}`),
            }))}
            data-testid="budget-scope"
          />
        </Stack>
        {values.kind === 'department' ? (
          <Select
            label={t('usage.budgets.fields.department')}
            required
            searchable
            data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.displayName }))}
            value={values.departmentId}
            onChange={(id) => set('departmentId', id)}
            nothingFoundMessage={t('usage.budgets.nothing_found')}
            data-testid="budget-department"
          />
        ) : null}
        {values.kind === 'user' ? (
          <Select
            label={t('usage.budgets.fields.person')}
            required
            searchable
            filter={({ options }) => options}
            searchValue={userSearch}
            onSearchChange={setUserSearch}
            data={userOptions}
            value={values.userId}
            onChange={(id, option) => {
              set('userId', id);
              setPicked(option ?? null);
            }}
            nothingFoundMessage={t('usage.budgets.nothing_found')}
            data-testid="budget-person"
          />
        ) : null}
        <Select
          label={t('usage.budgets.fields.period')}
          data={BudgetPeriods.map((period) => ({
            value: period,
            label: t(`usage.budgets.periods.${period}`),
          }))}
          value={values.period}
          allowDeselect={false}
          onChange={(period) => period && set('period', period as BudgetPeriod)}
          data-testid="budget-period"
        />
        <NumberInput
          label={t('usage.budgets.fields.dollars')}
          description={t('usage.budgets.fields.limits_hint')}
          prefix="US$ "
          min={0}
          decimalScale={6}
          value={values.dollars}
          onChange={(v) => set('dollars', typeof v === 'number' ? v : '')}
          data-testid="budget-dollars"
        />
        <NumberInput
          label={t('usage.budgets.fields.tokens')}
          min={0}
          allowDecimal={false}
          thousandSeparator
          value={values.tokens}
          onChange={(v) => set('tokens', typeof v === 'number' ? v : '')}
          data-testid="budget-tokens"
        />
        <NumberInput
          label={t('usage.budgets.fields.warn_at')}
          suffix=" %"
          min={1}
          max={100}
          allowDecimal={false}
          value={values.warnAtPercent}
          onChange={(v) => set('warnAtPercent', typeof v === 'number' ? v : '')}
          data-testid="budget-warn"
        />
        {problem ? (
          <Text size="sm" c="red" role="alert" data-testid="budget-problem">
            {problem}
          </Text>
        ) : null}
      </Stack>
    </FormDialog>
  );
}

type Problem = 'department' | 'person' | 'limit' | 'warn';

/** The request the form describes, or what is missing from it. */
export function toInput(values: BudgetValues, domain: string): BudgetInput | Problem {
  const scope =
    values.kind === 'domain'
      ? ({ kind: 'domain' } as const)
      : values.kind === 'department'
        ? values.departmentId && { kind: 'department' as const, departmentId: values.departmentId }
        : values.userId && { kind: 'user' as const, userId: values.userId };
  if (!scope) return values.kind === 'department' ? 'department' : 'person';
  const dollars = values.dollars === '' || values.dollars <= 0 ? undefined : toMicros(values.dollars);
  const tokens = values.tokens === '' || values.tokens <= 0 ? undefined : values.tokens;
  if (dollars === undefined && tokens === undefined) return 'limit';
  if (values.warnAtPercent === '' || values.warnAtPercent < 1 || values.warnAtPercent > 100) return 'warn';
  return {
    domain,
    scope,
    period: values.period,
    limit: {
      ...(dollars !== undefined ? { costMicros: dollars } : {}),
      ...(tokens !== undefined ? { tokens } : {}),
    },
    warnAtPercent: values.warnAtPercent,
  };
}
