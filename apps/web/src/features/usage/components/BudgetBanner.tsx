import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { useMyUsage } from '../hooks/useUsage.ts';
import { bannerBudgets, dismissKey } from '../lib/budgets.ts';

const STORAGE_KEY = 'assistente.budgetBanner.dismissed';

function readDismissed(): Set<string> {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Set(Array.isArray(raw) ? raw.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

function saveDismissed(keys: ReadonlySet<string>, current: readonly string[]): void {
  // Only this period's dismissals are worth keeping: older ones never match again.
  const kept = [...keys].filter((k) => current.includes(k));
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Storage full or blocked: the banner only comes back on the next load.
  }
}

/**
 * A budget that covers the person is at its warning (80 % by default) or spent: said at the top of
 * every signed-in page, with when it resets. Dismissed for the rest of that budget's period.
 */
export function BudgetBanner() {
  const { t, i18n } = useTranslation();
  const me = useMyUsage();
  const [dismissed, setDismissed] = useState(readDismissed);
  const ref = useRef<HTMLDivElement>(null);
  const shown = bannerBudgets(me.data?.budgets ?? [], dismissed)[0];

  // The chats layout fills the window below the header: it leaves room for the banner.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the banner's element comes and goes with `shown`
  useEffect(() => {
    const root = document.documentElement;
    const el = ref.current;
    if (!el) {
      root.style.removeProperty('--budget-banner-height');
      return;
    }
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--budget-banner-height', `${el.offsetHeight}px`),
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--budget-banner-height');
    };
  }, [shown]);

  if (!shown) return null;
  const spent = shown.percent >= 100;
  const when = formatDateTime(shown.used.resetsAt, i18n.language);
  const scope = t(`usage_banner.scopes.${shown.scope}`);
  const period = t(`usage_banner.periods.${shown.period}`);
  const dismiss = () => {
    const next = new Set(dismissed).add(dismissKey(shown));
    setDismissed(next);
    saveDismissed(next, (me.data?.budgets ?? []).map(dismissKey));
  };
  return (
    <div ref={ref}>
      <Alert
        color={spent ? 'red' : 'orange'}
        variant="light"
        radius={0}
        icon={<IconAlertTriangle size={20} />}
        withCloseButton
        closeButtonLabel={t('usage_banner.dismiss')}
        onClose={dismiss}
        title={
          spent
            ? t('usage_banner.spent_title')
            : t('usage_banner.warn_title', { percent: Math.floor(shown.percent) })
        }
        role="status"
        data-testid="budget-banner"
        data-budget-state={spent ? 'spent' : 'warn'}
      >
        <Text size="sm">
          {spent
            ? t('usage_banner.spent', { scope, period, when })
            : t('usage_banner.warn', { scope, period, percent: Math.floor(shown.percent), when })}
        </Text>
      </Alert>
    </div>
  );
}
