/** The feature's query keys. */
export const knowledgeKeys = {
  all: ['knowledge'] as const,
  list: ['knowledge', 'sources'] as const,
  allDocuments: ['knowledge', 'documents'] as const,
  documents: (id: string) => ['knowledge', 'documents', id] as const,
  choices: ['knowledge', 'choices'] as const,
};
