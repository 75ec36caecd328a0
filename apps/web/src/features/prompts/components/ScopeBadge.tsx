import type { PromptScope } from '@assistente/contracts';
import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { SCOPE_COLORS } from '../internal/scopes.ts';

/** Who sees a prompt: "Pessoal", "Departamento" or "Domínio". */
export function ScopeBadge({ scope, size = 'sm' }: { scope: PromptScope; size?: BadgeProps['size'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={SCOPE_COLORS[scope]} variant="light" radius="sm" size={size} data-testid="prompt-scope">
      {t(`prompts.scopes.${scope}`)}
    </Badge>
  );
}
