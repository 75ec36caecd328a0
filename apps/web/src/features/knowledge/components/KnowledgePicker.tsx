import { KNOWLEDGE_SOURCE_REF_KIND, type SantitoKnowledge } from '@assistente/contracts';
import { MultiSelect } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useKnowledgeChoices } from '../hooks/useKnowledge.ts';

/**
 * The santito editor's knowledge picker: the domain's sources as `{ kind: "source", ref }`; other
 * kinds of knowledge the santito lists are kept as they are.
 */
export function KnowledgePicker({
  value,
  onChange,
}: {
  value: SantitoKnowledge[];
  onChange: (next: SantitoKnowledge[]) => void;
}) {
  const { t } = useTranslation();
  const choices = useKnowledgeChoices();
  const [search, setSearch] = useState('');
  const selected = value.filter((k) => k.kind === KNOWLEDGE_SOURCE_REF_KIND).map((k) => k.ref);
  const others = value.filter((k) => k.kind !== KNOWLEDGE_SOURCE_REF_KIND);
  const data = (choices.data ?? []).map((c) => ({
    value: c.sourceId,
    label: `${c.displayName} (${t(`knowledge.kinds.${c.kind}`)})`,
  }));
  // A source listed but not offered (removed meanwhile) still shows, so it can be taken out.
  for (const k of value) {
    if (k.kind === KNOWLEDGE_SOURCE_REF_KIND && !data.some((d) => d.value === k.ref)) {
      data.push({ value: k.ref, label: k.title || k.ref });
    }
  }
  return (
    <MultiSelect
      label={t('knowledge.picker.label')}
      description={t('knowledge.picker.hint')}
      placeholder={selected.length === 0 ? t('knowledge.picker.placeholder') : undefined}
      data={data}
      value={selected}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // A search that matches nothing is not a domain without sources.
      nothingFoundMessage={
        data.length === 0
          ? t('knowledge.picker.none')
          : t('knowledge.picker.no_match', { query: search.trim() })
      }
      onChange={(refs) =>
        onChange([
          ...others,
          ...refs.map((ref) => ({
            kind: KNOWLEDGE_SOURCE_REF_KIND,
            ref,
            title: (choices.data?.find((c) => c.sourceId === ref)?.displayName ?? '').slice(0, 200),
          })),
        ])
      }
    />
  );
}
