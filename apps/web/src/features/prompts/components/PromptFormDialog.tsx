import {
  type Prompt,
  PromptCreateSchema,
  PromptLimits,
  type PromptScope,
  type PromptUpdate,
  promptVariables,
  type User,
} from '@assistente/contracts';
import { Badge, Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors } from '../../../lib/validation/schemaErrors.ts';
import { apiErrorCode } from '../../../ui/apiError.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useCreatePrompt, useUpdatePrompt } from '../hooks/usePrompts.ts';
import { PROMPT_SCOPES, writableScopes } from '../internal/scopes.ts';

interface Values {
  title: string;
  command: string;
  content: string;
  scope: PromptScope;
}

const EMPTY: Values = { title: '', command: '', content: '', scope: 'private' };
/** The example of a variable the content's hint shows. */
const EXAMPLE_VARIABLE = '{{cliente}}';

/** A command from a title: "Resumo da reunião" → `resumo-da-reuniao`. */
export function commandFrom(title: string): string {
  const slug = title
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, PromptLimits.commandMax)
    .replace(/-+$/, '');
  return slug;
}

/** What the command field keeps of what is typed: no leading `/`, lowercase, spaces as `-`. */
function commandInput(value: string): string {
  return value.replace(/^\/+/, '').toLowerCase().replace(/\s+/g, '-');
}

/** The fields an edit changed: the server makes a version of them. */
function changes(prompt: Prompt, values: Values): PromptUpdate | null {
  const body: PromptUpdate = {};
  if (values.title.trim() !== prompt.title) body.title = values.title;
  if (values.command.trim() !== prompt.command) body.command = values.command;
  if (values.content !== prompt.content) body.content = values.content;
  if (values.scope !== prompt.scope) body.scope = values.scope;
  return Object.keys(body).length > 0 ? body : null;
}

/** Creates a prompt (`prompt` null) or edits one, as a new version. */
export function PromptFormDialog({
  opened,
  prompt,
  user,
  onClose,
  onSaved,
}: {
  opened: boolean;
  prompt: Prompt | null;
  user: Pick<User, 'role' | 'department'>;
  onClose: () => void;
  onSaved: (prompt: Prompt, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const { failure, clear: clearFailure, fail } = useSubmitFailure();
  const create = useCreatePrompt();
  const update = useUpdatePrompt();
  // Until the person types a command of their own, a new prompt's follows its title.
  const commandTouched = useRef(false);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: (values) => {
      const errors = schemaErrors(PromptCreateSchema, values, t, { command: 'prompts.form.command_invalid' });
      if (promptVariables(values.content).length > PromptLimits.variablesMax)
        errors.content ??= t('prompts.form.too_many_variables', { max: PromptLimits.variablesMax });
      return errors;
    },
  });

  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!opened) return;
    const initial = prompt
      ? { title: prompt.title, command: prompt.command, content: prompt.content, scope: prompt.scope }
      : EMPTY;
    setValues(initial);
    resetDirty(initial);
    commandTouched.current = prompt !== null;
    clearFailure();
  }, [opened, prompt, setValues, resetDirty, clearFailure]);

  // A prompt keeps the scope it has even when the editor's role would not give it today.
  const allowed = writableScopes(user);
  const scopes = PROMPT_SCOPES.filter((scope) => allowed.includes(scope) || scope === prompt?.scope);
  const variables = promptVariables(form.values.content);
  const pending = create.isPending || update.isPending;

  const submit = form.onSubmit(async (values) => {
    clearFailure();
    try {
      if (prompt) {
        const body = changes(prompt, values);
        if (!body) {
          onClose();
          return;
        }
        onSaved(await update.mutateAsync({ id: prompt.id, body }), false);
      } else {
        onSaved(await create.mutateAsync(values), true);
      }
    } catch (error) {
      // Refused for the audience chosen (the role does not write it): said at that field.
      const scopeChosen = prompt ? values.scope !== prompt.scope : values.scope !== 'private';
      if (apiErrorCode(error) === 'FORBIDDEN' && scopeChosen) {
        form.setFieldError('scope', t('prompts.form.scope_forbidden'));
        return;
      }
      fail(error, () => form.setFieldError('command', t('prompts.form.command_taken')));
    }
  });

  return (
    <FormDialog
      opened={opened}
      title={prompt ? t('prompts.form.edit_title') : t('prompts.form.create_title')}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      failure={failure}
      submitLabel={prompt ? t('common.save') : t('prompts.form.create')}
      size="lg"
    >
      <TextInput
        label={t('prompts.fields.title')}
        placeholder={t('prompts.form.title_placeholder')}
        required
        maxLength={PromptLimits.titleMax}
        data-autofocus
        data-testid="prompt-title"
        {...form.getInputProps('title')}
        onChange={(event) => {
          const title = event.currentTarget.value;
          form.setFieldValue('title', title);
          if (!commandTouched.current) form.setFieldValue('command', commandFrom(title));
        }}
      />
      <TextInput
        label={t('prompts.fields.command')}
        description={t('prompts.form.command_hint')}
        placeholder={t('prompts.form.command_placeholder')}
        required
        maxLength={PromptLimits.commandMax}
        leftSection={
          <Text size="sm" fw={600} c="dimmed" aria-hidden>
            /
          </Text>
        }
        leftSectionWidth={28}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        data-testid="prompt-command"
        {...form.getInputProps('command')}
        onChange={(event) => {
          commandTouched.current = true;
          form.setFieldValue('command', commandInput(event.currentTarget.value));
        }}
      />
      <Stack gap={6}>
        <Textarea
          label={t('prompts.fields.content')}
          description={t('prompts.form.content_hint', { example: EXAMPLE_VARIABLE })}
          placeholder={t('prompts.form.content_placeholder', { example: EXAMPLE_VARIABLE })}
          required
          autosize
          minRows={5}
          maxRows={14}
          maxLength={PromptLimits.contentMax}
          data-testid="prompt-content"
          {...form.getInputProps('content')}
        />
        <Group gap={6} aria-live="polite" data-testid="prompt-variables-found">
          <Text size="xs" c="dimmed">
            {variables.length > 0 ? t('prompts.form.variables_found') : t('prompts.form.no_variables')}
          </Text>
          {variables.map((name) => (
            <Badge key={name} variant="light" color="primary" radius="sm" size="sm" tt="none">
              {name}
            </Badge>
          ))}
        </Group>
      </Stack>
      <NativeSelect
        label={t('prompts.fields.scope')}
        description={t(`prompts.scope_hints.${form.values.scope}`)}
        data={scopes.map((scope) => ({ value: scope, label: t(`prompts.scopes.${scope}`) }))}
        data-testid="prompt-scope-select"
        {...form.getInputProps('scope')}
      />
      {scopes.length < PROMPT_SCOPES.length ? (
        <Text size="xs" c="dimmed" mt={-8}>
          {t('prompts.form.scope_limited')}
        </Text>
      ) : null}
    </FormDialog>
  );
}
