import type { ErrorFrame } from '@assistente/contracts';

/** The texts of the refusals a person can act on, translated by the extension host. */
export interface RefusalTexts {
  /** `{0}`: when sending works again, in the editor's language. */
  budgetExceeded: string;
  priceMissing: string;
  modelNotAllowed: string;
}

/**
 * What the chat says when the server refuses a send: the refusals a person can act on in the
 * editor's language (a budget says when it resets), anything else as the server worded it.
 */
export function refusalText(
  frame: Pick<ErrorFrame, 'code' | 'message' | 'resetsAt'>,
  texts: RefusalTexts,
  language: string,
): string {
  switch (frame.code) {
    case 'BUDGET_EXCEEDED':
      return frame.resetsAt
        ? texts.budgetExceeded.replace('{0}', when(frame.resetsAt, language))
        : frame.message;
    case 'PRICE_MISSING':
      return texts.priceMissing;
    case 'MODEL_NOT_ALLOWED':
      return texts.modelNotAllowed;
    default:
      return frame.message;
  }
}

function when(iso: string, language: string): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(language, options).format(new Date(iso));
  } catch {
    // An editor language Intl does not know (a custom language pack): the host's own.
    return new Intl.DateTimeFormat(undefined, options).format(new Date(iso));
  }
}
