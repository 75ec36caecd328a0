import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import * as access from './access.ts';
import * as aiSettings from './ai-settings.ts';
import * as configs from './configs.ts';
import { effectiveBaseUrl } from './factory.ts';
import * as models from './models.ts';
import * as state from './state.ts';

export type { EmbeddingTarget, ResolvedModel } from './models.ts';

/**
 * The providers service (docs/ARCHITECTURE.md#model-providers), built once per app. It only names
 * the operations (docs/ARCHITECTURE.md#service-style); each lives in the file of its concern:
 * configs.ts, models.ts, ai-settings.ts, access.ts, over the shared state of state.ts.
 */
export function createProvidersService(ctx: AppContext) {
  return {
    /** For display: where a configuration's requests go. */
    effectiveBaseUrl,
    ...withState(state.createProvidersState(ctx), {
      list: configs.list,
      create: configs.create,
      update: configs.update,
      remove: configs.remove,
      test: configs.test,

      providerLabels: models.providerLabels,
      models: models.models,
      assertUsable: models.assertUsable,
      resolveModel: models.resolveModel,
      embeddingModel: models.embeddingModel,
      imageModel: models.imageModel,

      getAiSettings: aiSettings.getAiSettings,
      putAiSettings: aiSettings.putAiSettings,

      getModelAccess: access.getModelAccess,
      putModelAccess: access.putModelAccess,

      close: state.close,
    }),
  };
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
