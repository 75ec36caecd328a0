// The AI SDK providers, apart from the rest of factory.ts so that a start loads none of them
// (docs/ARCHITECTURE.md#build-and-run): the model workers import this; the main thread imports it
// on its first embedding or image.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ImageModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import { createOllama } from 'ollama-ai-provider-v2';
import { assertNever, effectiveBaseUrl, type ProviderSpec } from './factory.ts';

/**
 * The AI SDK providers of a spec, one per kind, from which its chat, embedding and image models
 * are made. The API key is always passed explicitly (an empty string when there is none), so a
 * domain's provider never falls back to the instance's env keys.
 */
export const sdkOf = {
  openai: (spec: ProviderSpec) =>
    createOpenAI({ apiKey: spec.apiKey ?? '', baseURL: effectiveBaseUrl(spec), fetch: spec.fetch }),
  compatible: (spec: ProviderSpec) =>
    createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: effectiveBaseUrl(spec),
      ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
      includeUsage: true,
      fetch: spec.fetch,
    }),
  anthropic: (spec: ProviderSpec) =>
    createAnthropic({ apiKey: spec.apiKey ?? '', baseURL: effectiveBaseUrl(spec), fetch: spec.fetch }),
  google: (spec: ProviderSpec) =>
    createGoogleGenerativeAI({
      apiKey: spec.apiKey ?? '',
      baseURL: effectiveBaseUrl(spec),
      fetch: spec.fetch,
    }),
  ollama: (spec: ProviderSpec) => createOllama({ baseURL: effectiveBaseUrl(spec), fetch: spec.fetch }),
};

/** The AI SDK chat model for `modelName`. */
export function languageModel(spec: ProviderSpec, modelName: string): LanguageModelV3 {
  switch (spec.kind) {
    case 'openai':
      // Chat Completions: what every OpenAI-compatible server and the test fixture speak.
      return sdkOf.openai(spec).chat(modelName);
    case 'openai-compatible':
      return sdkOf.compatible(spec).chatModel(modelName);
    case 'anthropic':
      return sdkOf.anthropic(spec)(modelName);
    case 'google':
      return sdkOf.google(spec)(modelName);
    case 'ollama':
      return sdkOf.ollama(spec)(modelName);
    default:
      return assertNever(spec.kind);
  }
}

/**
 * The AI SDK image model for `modelName`, for the kinds whose API makes images (OpenAI's Images
 * API, which OpenAI-compatible servers copy, and Google's Imagen); undefined for the others.
 */
export function imageModelOf(spec: ProviderSpec, modelName: string): ImageModelV3 | undefined {
  switch (spec.kind) {
    case 'openai':
      return sdkOf.openai(spec).image(modelName);
    case 'openai-compatible':
      return sdkOf.compatible(spec).imageModel(modelName);
    case 'google':
      return sdkOf.google(spec).image(modelName);
    default:
      return undefined;
  }
}
