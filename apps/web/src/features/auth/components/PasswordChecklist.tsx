import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import type { PasswordCheck } from '../passwordPolicy.ts';

/** The password policy as a live checklist. */
export function PasswordChecklist({ checks }: { checks: readonly PasswordCheck[] }) {
  const { t } = useTranslation();
  return (
    <List
      spacing={4}
      size="sm"
      center
      aria-label={t('pages_reset_password.policy.label')}
      data-testid="password-policy"
    >
      {checks.map((check) => (
        <List.Item
          key={check.requirement}
          data-met={check.met || undefined}
          icon={
            <ThemeIcon
              size={18}
              radius="xl"
              color={check.met ? 'green' : 'neutral.3'}
              variant={check.met ? 'filled' : 'light'}
            >
              {check.met ? <IconCheck size={12} stroke={3} /> : <IconPoint size={12} />}
            </ThemeIcon>
          }
        >
          <Text size="sm" c={check.met ? 'green.8' : 'dimmed'}>
            {t(`pages_reset_password.policy.${check.requirement}`, { value: check.value ?? 0 })}
            <VisuallyHidden>
              {' '}
              ({check.met ? t('pages_reset_password.policy.met') : t('pages_reset_password.policy.unmet')})
            </VisuallyHidden>
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
