import type { ModelInfo } from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';

/**
 * A model's provider as people read it: a domain's configuration by the name its Admin gave it,
 * an instance-wide one (named by the server, in English) by its kind, translated.
 */
export function providerName(
  t: TFunction,
  model: Pick<ModelInfo, 'source' | 'kind' | 'providerLabel'>,
): string {
  return model.source === 'instance' ? t(`providers.kinds.${model.kind}`) : model.providerLabel;
}
