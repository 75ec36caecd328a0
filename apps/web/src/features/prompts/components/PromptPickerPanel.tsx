import { fillPrompt, type Prompt } from '@assistente/contracts';
import { Anchor, Button, Group, Loader, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import {
  type FormEvent,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { usePickerPrompts } from '../hooks/usePrompts.ts';
import { matchPrompts } from '../internal/slash.ts';
import classes from './PromptPicker.module.css';
import type { PromptPickerProps } from './PromptPicker.tsx';
import { ScopeBadge } from './ScopeBadge.tsx';

/** The panel opens under the message box when there is not this much room above it (the home page's box). */
const ROOM_ABOVE = 340;

/** The open picker: the prompts `query` finds as a listbox, then the chosen one's variables as a form. */
export default function PromptPickerPanel({
  ref,
  query,
  listboxId,
  onActiveChange,
  onInsert,
  onCancel,
}: PromptPickerProps) {
  const { t } = useTranslation();
  const list = usePickerPrompts();
  const matches = useMemo(() => matchPrompts(list.data ?? [], query), [list.data, query]);
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<Prompt | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [below, setBelow] = useState(false);

  // A new query starts from its best match, and leaves a variables form opened for another one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on each new query
  useEffect(() => {
    setActive(0);
    setChosen(null);
  }, [query]);

  const current = chosen ? null : (matches[Math.min(active, matches.length - 1)] ?? null);
  const optionId = (prompt: Prompt) => `${listboxId}-${prompt.id}`;
  const activeId = current ? optionId(current) : null;
  useEffect(() => {
    onActiveChange(activeId);
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId, onActiveChange]);
  useEffect(() => () => onActiveChange(null), [onActiveChange]);

  useLayoutEffect(() => {
    const box = panel.current?.parentElement?.getBoundingClientRect();
    if (box) setBelow(box.top < ROOM_ABOVE && window.innerHeight - box.bottom > box.top);
  }, []);

  const choose = (prompt: Prompt) => {
    if (prompt.variables.length === 0) onInsert(prompt.content);
    else setChosen(prompt);
  };

  useImperativeHandle(ref, () => ({
    keyDown(event) {
      if (chosen) return false;
      // Nothing to choose yet: Enter must not send the `/query` as a message meanwhile.
      if (list.isPending) return event.key === 'Enter' && !event.shiftKey;
      if (matches.length === 0) return false;
      const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index) => (Math.min(index, matches.length - 1) + step + matches.length) % matches.length);
        return true;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && plain && current) {
        choose(current);
        return true;
      }
      return false;
    },
  }));

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: it only keeps the focus where it is
    <div
      ref={panel}
      className={classes.panel}
      data-placement={below ? 'below' : 'above'}
      data-testid="prompt-picker"
      // A click inside keeps the focus where it is (the message box, or a variable's field): a
      // blur to nowhere would close the picker before the click lands.
      onMouseDown={(event) => {
        if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
      }}
    >
      {chosen ? (
        <VariablesForm
          prompt={chosen}
          onSubmit={(values) => onInsert(fillPrompt(chosen.content, values))}
          onCancel={onCancel}
        />
      ) : (
        <>
          <Group justify="space-between" gap="xs" wrap="nowrap" className={classes.header}>
            <Text size="xs" fw={600} c="dimmed" id={`${listboxId}-label`}>
              {t('prompts.picker.label')}
            </Text>
            <ManageLink />
          </Group>
          <PickerBody
            listboxId={listboxId}
            list={list}
            matches={matches}
            current={current}
            optionId={optionId}
            onHover={(prompt) => setActive(matches.indexOf(prompt))}
            onChoose={choose}
          />
        </>
      )}
    </div>
  );
}

function ManageLink() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <Anchor component={Link} to={lp('/settings?tab=prompts')} size="xs" data-testid="prompt-picker-manage">
      <Group gap={4} wrap="nowrap" component="span">
        <IconSettings size={14} aria-hidden />
        {t('prompts.picker.manage')}
      </Group>
    </Anchor>
  );
}

function PickerBody({
  listboxId,
  list,
  matches,
  current,
  optionId,
  onHover,
  onChoose,
}: {
  listboxId: string;
  list: ReturnType<typeof usePickerPrompts>;
  matches: Prompt[];
  current: Prompt | null;
  optionId: (prompt: Prompt) => string;
  onHover: (prompt: Prompt) => void;
  onChoose: (prompt: Prompt) => void;
}) {
  const { t } = useTranslation();
  if (list.isPending)
    return (
      <Group gap="xs" className={classes.state} role="status">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {t('prompts.picker.loading')}
        </Text>
      </Group>
    );
  if (list.isError)
    return (
      <Group gap="xs" justify="space-between" className={classes.state} role="alert">
        <Text size="sm" c="error.7">
          {t('prompts.picker.load_failed')}
        </Text>
        <Button size="compact-xs" variant="subtle" onClick={() => void list.refetch()}>
          {t('common.retry')}
        </Button>
      </Group>
    );
  return (
    <>
      <VisuallyHidden role="status" aria-live="polite">
        {matches.length === 0
          ? t('prompts.picker.empty')
          : t('prompts.picker.results', { count: matches.length })}
      </VisuallyHidden>
      {matches.length === 0 ? (
        <div className={classes.state} data-testid="prompt-picker-empty">
          <Text size="sm" fw={500}>
            {t('prompts.picker.empty')}
          </Text>
          <Text size="xs" c="dimmed">
            {(list.data?.length ?? 0) === 0
              ? t('prompts.picker.empty_library')
              : t('prompts.picker.empty_hint')}
          </Text>
        </div>
      ) : (
        <div role="listbox" id={listboxId} aria-labelledby={`${listboxId}-label`} className={classes.listbox}>
          {matches.map((prompt) => {
            const selected = prompt === current;
            return (
              // The message box keeps the focus (aria-activedescendant names the option).
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses from the message box
              <div
                key={prompt.id}
                id={optionId(prompt)}
                role="option"
                aria-selected={selected}
                tabIndex={-1}
                className={classes.option}
                data-testid="prompt-option"
                onMouseMove={() => {
                  if (!selected) onHover(prompt);
                }}
                onClick={() => onChoose(prompt)}
              >
                <Group gap={8} wrap="nowrap" justify="space-between">
                  <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} className={classes.command}>
                      /{prompt.command}
                    </Text>
                    <Text size="sm" truncate>
                      {prompt.title}
                    </Text>
                  </Group>
                  <ScopeBadge scope={prompt.scope} size="xs" />
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  {prompt.content}
                </Text>
              </div>
            );
          })}
        </div>
      )}
    </>
  );
}

/** One field per variable, the first focused: Enter inserts, Escape goes back to the text. */
function VariablesForm({
  prompt,
  onSubmit,
  onCancel,
}: {
  prompt: Prompt;
  onSubmit: (values: Record<string, string>) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>({});
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const titleId = `prompt-vars-${prompt.id}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A field left empty keeps its {{name}}, to be written in the message by hand.
    onSubmit(Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== '')));
  };
  return (
    <form
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}
      aria-labelledby={titleId}
      className={classes.form}
      data-testid="prompt-variables"
    >
      <Text size="sm" fw={600} id={titleId} mb={2}>
        {t('prompts.picker.fill_title', { title: prompt.title })}
      </Text>
      <div className={classes.fields}>
        {prompt.variables.map((name, index) => (
          <TextInput
            key={name}
            ref={index === 0 ? first : undefined}
            label={name}
            size="sm"
            value={values[name] ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setValues((current) => ({ ...current, [name]: value }));
            }}
            data-testid="prompt-variable"
          />
        ))}
      </div>
      <Group justify="space-between" gap="xs" mt="xs" wrap="wrap">
        <Text size="xs" c="dimmed" style={{ flex: '1 1 180px' }}>
          {t('prompts.picker.fill_hint')}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button size="xs" type="submit" data-testid="prompt-variables-insert">
            {t('prompts.picker.insert')}
          </Button>
        </Group>
      </Group>
    </form>
  );
}
