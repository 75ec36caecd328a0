import type { Attachment } from '@assistente/contracts';
import { generateImage } from 'ai';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../lib/errors.ts';
import type { ToolOutput } from '../connections.ts';
import type { ToolFiles } from './code-interpreter.ts';

/*
 * `generate_image` (docs/ARCHITECTURE.md#built-in-tools): the domain's image model draws one image
 * per call. The call passes the budgets first like any model call, is one ledger row (source
 * `image`, priced per image), and the image is kept as the chat's attachment, within the quota.
 */

export const IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
export const PROMPT_MAX = 4_000;

/** Who pays for the image: the answer's ledger entry, without its source and model. */
export interface ImageLedger {
  domainId: string;
  departmentId: string | null;
  userId: string | null;
  santitoId: string | null;
  virtualAccountId?: string | null;
}

/** A file name from the prompt's first words: `a-red-fox-in-snow.png`. */
function fileNameOf(prompt: string, mediaType: string): string {
  const slug = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  const ext = mediaType === 'image/jpeg' ? 'jpg' : (mediaType.split('/')[1] ?? 'png');
  return `${slug || 'image'}.${ext}`;
}

export async function drawImage(
  ctx: AppContext,
  who: ImageLedger,
  files: ToolFiles,
  input: { prompt: string; size?: (typeof IMAGE_SIZES)[number] },
  signal: AbortSignal,
): Promise<ToolOutput> {
  const target = await ctx.services.providers.imageModel(who.domainId);
  // On first use: a start loads no provider SDK (docs/ARCHITECTURE.md#build-and-run).
  const model = target
    ? (await import('../../providers/sdk.ts')).imageModelOf(target.spec, target.name)
    : undefined;
  if (!target || !model) return { text: 'No image model is set up for this organisation.', isError: true };
  const call = await ctx.services.usage.begin({
    entry: { ...who, source: 'image', model: target.modelId },
    estimate: { input: () => '', maxOutputTokens: 0, images: 1 },
  });
  let image: { uint8Array: Uint8Array; mediaType: string } | undefined;
  try {
    const result = await generateImage({
      model,
      prompt: input.prompt,
      n: 1,
      ...(input.size ? { size: input.size } : {}),
      maxRetries: 0,
      abortSignal: signal,
    });
    image = result.images[0];
  } finally {
    // The provider made (and bills) the image once it answered; nothing is owed otherwise.
    if (image) await call.settle({ inputTokens: 0, outputTokens: 0, images: 1 });
    else await call.release();
  }
  if (!image) return { text: 'The image model returned no image.', isError: true };
  let kept: Attachment;
  try {
    kept = await files.save(
      fileNameOf(input.prompt, image.mediaType),
      image.mediaType,
      Buffer.from(image.uint8Array),
    );
  } catch (err) {
    if (err instanceof AppError)
      return { text: `The image was made but not kept: ${err.message}`, isError: true };
    throw err;
  }
  return {
    text: `Made the image ${kept.name}; it is shown to the person already (do not link it).`,
    isError: false,
    files: [kept],
  };
}
