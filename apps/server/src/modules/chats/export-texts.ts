import type { Locale, MessageStatus } from '@assistente/contracts';

/** The words the Markdown export writes around the messages. */
export interface ExportTexts {
  /** The heading of a chat without a title. */
  untitled: string;
  exportedAt: (iso: string) => string;
  user: string;
  assistant: string;
  /** Above the numbered knowledge an answer cites. */
  sources: string;
  /** Above the files an answer's tools made (a chart, an image). */
  madeFiles: string;
  /** Beside the heading of a message that did not end normally. */
  status: Record<Exclude<MessageStatus, 'complete'>, string>;
}

/** The Markdown export's labels in every language of the product (pt-BR is the default). */
export const EXPORT_TEXTS: Record<Locale, ExportTexts> = {
  'pt-BR': {
    untitled: 'Conversa sem título',
    exportedAt: (iso) => `Exportado em ${iso}`,
    user: 'Você',
    assistant: 'Assistente',
    sources: 'Fontes',
    madeFiles: 'Arquivos gerados',
    status: {
      streaming: 'incompleta',
      stopped: 'interrompida',
      error: 'terminou com um erro',
      awaiting_approval: 'aguardando aprovação de uma ferramenta',
    },
  },
  en: {
    untitled: 'Untitled chat',
    exportedAt: (iso) => `Exported ${iso}`,
    user: 'You',
    assistant: 'Assistant',
    sources: 'Sources',
    madeFiles: 'Files made',
    status: {
      streaming: 'incomplete',
      stopped: 'stopped',
      error: 'ended with an error',
      awaiting_approval: 'waiting for a tool to be approved',
    },
  },
  es: {
    untitled: 'Conversación sin título',
    exportedAt: (iso) => `Exportado el ${iso}`,
    user: 'Tú',
    assistant: 'Asistente',
    sources: 'Fuentes',
    madeFiles: 'Archivos generados',
    status: {
      streaming: 'incompleta',
      stopped: 'detenida',
      error: 'terminó con un error',
      awaiting_approval: 'esperando la aprobación de una herramienta',
    },
  },
};
