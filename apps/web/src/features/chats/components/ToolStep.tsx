import type { BuiltinToolName, ToolPart } from '@assistente/contracts';
import { Button, Group, Loader, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBan,
  IconBooks,
  IconBrain,
  IconCheck,
  IconCode,
  IconHandStop,
  IconPhoto,
  IconTool,
  IconWorldSearch,
  IconWorldWww,
} from '@tabler/icons-react';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { builtinOf, builtinStepText, codeOf, imageRequestOf, languageName } from '../lib/builtinStep.ts';
import { ToolFiles } from './ToolFiles.tsx';
import classes from './ToolStep.module.css';

const BUILTIN_ICON: Record<BuiltinToolName, typeof IconTool> = {
  web_search: IconWorldSearch,
  fetch_page: IconWorldWww,
  knowledge_search: IconBooks,
  code_interpreter: IconCode,
  generate_image: IconPhoto,
  remember: IconBrain,
};

/** How long the decision buttons stay off after a click when the answer does not resume. */
const RETRY_AFTER_MS = 15_000;

/** Sends the person's decision on a call waiting for them; `remember` allows the tool for the chat. */
export type DecideTool = (toolCallId: string, decision: 'allow' | 'deny', remember: boolean) => void;

function StatusIcon({ status }: { status: ToolPart['status'] }) {
  switch (status) {
    case 'running':
      return <Loader size={12} aria-hidden />;
    case 'done':
      return <IconCheck size={14} aria-hidden className={classes.done} />;
    case 'awaiting_approval':
      return <IconHandStop size={14} aria-hidden className={classes.waiting} />;
    case 'denied':
      return <IconBan size={14} aria-hidden className={classes.muted} />;
    case 'error':
      return <IconAlertTriangle size={14} aria-hidden className={classes.failed} />;
  }
}

/** The tool's arguments as indented JSON; a value JSON cannot hold is shown as text. */
function argumentsText(input: unknown): string {
  try {
    return JSON.stringify(input ?? {}, null, 2) ?? String(input);
  } catch {
    return String(input);
  }
}

/** The command-line arguments a `code_interpreter` run is given, or null for none. */
function codeArgs(input: unknown): string[] | null {
  if (typeof input !== 'object' || input === null || !('args' in input)) return null;
  const args = (input as Record<string, unknown>).args;
  return Array.isArray(args) && args.length > 0 ? args.map(String) : null;
}

/** What the step was given: the code of a `code_interpreter` run, the prompt of a `generate_image`, the JSON arguments of any other. */
function StepInput({
  part,
  code,
  image,
}: {
  part: ToolPart;
  code: { lang: string | null; code: string } | null;
  image: { prompt: string; size: string | null } | null;
}) {
  const { t } = useTranslation();
  if (image) {
    return (
      <>
        <Text size="xs" c="dimmed" className={classes.label}>
          {t('chats.tool.prompt')}
        </Text>
        <p className={classes.prompt} data-testid="tool-prompt">
          {image.prompt}
        </p>
        {image.size ? (
          <Text size="xs" c="dimmed" className={classes.label} data-testid="tool-image-size">
            {t('chats.tool.image_size', { size: image.size.replace('x', ' × ') })}
          </Text>
        ) : null}
      </>
    );
  }
  if (!code) {
    return (
      <>
        <Text size="xs" c="dimmed" className={classes.label}>
          {t('chats.tool.arguments')}
        </Text>
        <pre className={classes.pre} data-testid="tool-arguments">
          {argumentsText(part.input)}
        </pre>
      </>
    );
  }
  const args = codeArgs(part.input);
  return (
    <>
      <Text size="xs" c="dimmed" className={classes.label}>
        {code.lang ? t('chats.tool.code_in', { language: languageName(code.lang) }) : t('chats.tool.code')}
      </Text>
      <pre className={classes.code} data-testid="tool-code">
        <code>{code.code}</code>
      </pre>
      {args ? (
        <>
          <Text size="xs" c="dimmed" className={classes.label}>
            {t('chats.tool.arguments')}
          </Text>
          <pre className={classes.pre} data-testid="tool-arguments">
            {argumentsText(args)}
          </pre>
        </>
      ) : null}
    </>
  );
}

/**
 * One tool call of an answer, as a compact card that opens on its arguments and output. A call
 * waiting for the person offers Allow, Allow for this chat and Deny when `onDecide` is given.
 */
export const ToolStep = memo(function ToolStep({
  part,
  onDecide,
  disabled = false,
}: {
  part: ToolPart;
  /** Given when this person may decide now (the latest answer of their chat). */
  onDecide?: DecideTool | undefined;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation();
  // Sent, waiting for the server to resume the answer: the buttons are not pressed twice.
  const [sent, setSent] = useState(false);
  const waiting = part.status === 'awaiting_approval';
  const builtin = builtinOf(part);
  const described = builtin ? builtinStepText(t, builtin, part) : null;
  const title = described?.title ?? part.title;
  const Icon = builtin ? BUILTIN_ICON[builtin] : IconTool;
  const code = builtin === 'code_interpreter' ? codeOf(part) : null;
  const image = builtin === 'generate_image' ? imageRequestOf(part) : null;
  // Code is read before it is allowed to run, and a whole prompt before it is drawn: the step
  // opens on it while the person decides.
  const openOnInput = waiting && Boolean(onDecide) && (code !== null || image !== null);
  // A decision the server refused (the error shows above the composer) may be made again.
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => setSent(false), RETRY_AFTER_MS);
    return () => clearTimeout(timer);
  }, [sent]);
  const decide = (decision: 'allow' | 'deny', remember: boolean) => {
    setSent(true);
    onDecide?.(part.toolCallId, decision, remember);
  };
  const duration =
    part.durationMs === undefined
      ? null
      : part.durationMs < 1000
        ? t('chats.tool.duration_ms', { ms: String(part.durationMs) })
        : t('chats.tool.duration_s', {
            seconds: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
              part.durationMs / 1000,
            ),
          });

  return (
    <div className={classes.step} data-testid="tool-step" data-status={part.status}>
      <details className={classes.details} open={openOnInput || undefined}>
        <summary className={classes.summary}>
          {described?.summary ? (
            // The sentence says what the step did; the icon names the tool for a screen reader.
            <Icon size={14} role="img" aria-label={title} className={classes.muted} />
          ) : (
            <Icon size={14} aria-hidden className={classes.muted} />
          )}
          <span className={classes.title}>{described?.summary ?? title}</span>
          <span className={classes.status}>
            <StatusIcon status={part.status} />
            <span className={classes.statusText}>{t(`chats.tool.status.${part.status}`)}</span>
          </span>
          {duration ? <span className={classes.duration}>{duration}</span> : null}
        </summary>
        <div className={classes.body}>
          <StepInput part={part} code={code} image={image} />
          {part.output !== undefined ? (
            <>
              <Text size="xs" c="dimmed" className={classes.label}>
                {t('chats.tool.output')}
              </Text>
              <pre className={classes.pre} data-testid="tool-output">
                {part.output}
              </pre>
            </>
          ) : null}
        </div>
      </details>
      {part.files?.length ? <ToolFiles files={part.files} /> : null}
      {waiting && onDecide ? (
        <fieldset className={classes.approval}>
          <legend className={classes.question}>{t('chats.tool.approval_question', { tool: title })}</legend>
          <Group gap="xs" mt={6}>
            <Button size="xs" disabled={disabled || sent} onClick={() => decide('allow', false)}>
              {t('chats.tool.allow')}
            </Button>
            <Button
              size="xs"
              variant="light"
              disabled={disabled || sent}
              onClick={() => decide('allow', true)}
            >
              {t('chats.tool.allow_chat')}
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={disabled || sent}
              onClick={() => decide('deny', false)}
            >
              {t('chats.tool.deny')}
            </Button>
          </Group>
        </fieldset>
      ) : null}
    </div>
  );
});
