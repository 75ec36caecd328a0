import { RetentionLimits, type RetentionSettings } from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';
import { apiErrorCode, apiErrorDetails } from '../../../ui/apiError.ts';

/** A days field: a whole number, or empty for "keep forever". */
export type Days = number | '';

export interface DepartmentRule {
  /** The row's own key (a department may be picked again in another row). */
  key: string;
  /** The department's id; empty until one is picked. */
  id: string;
  days: Days;
}

/** The retention form: the domain's periods, the pinned exemption and the departments' stricter rules. */
export interface RetentionForm {
  chatsDays: Days;
  filesDays: Days;
  visitorChatsDays: Days;
  apiLogsDays: Days;
  exemptPinned: boolean;
  departments: DepartmentRule[];
}

export const PERIOD_FIELDS = ['chatsDays', 'filesDays', 'visitorChatsDays', 'apiLogsDays'] as const;
export type PeriodField = (typeof PERIOD_FIELDS)[number];

let rowKeys = 0;
/** A key for a new department row. */
export const newRowKey = () => `row-${++rowKeys}`;

export function toForm(settings: RetentionSettings): RetentionForm {
  return {
    chatsDays: settings.chatsDays ?? '',
    filesDays: settings.filesDays ?? '',
    visitorChatsDays: settings.visitorChatsDays ?? '',
    apiLogsDays: settings.apiLogsDays ?? '',
    exemptPinned: settings.exemptPinned,
    departments: Object.entries(settings.departments).map(([id, rule]) => ({
      key: newRowKey(),
      id,
      days: rule.chatsDays,
    })),
  };
}

const orNull = (days: Days): number | null => (days === '' ? null : days);

/** What the form sends (after `validateForm` found nothing). */
export function toSettings(form: RetentionForm): RetentionSettings {
  return {
    chatsDays: orNull(form.chatsDays),
    filesDays: orNull(form.filesDays),
    visitorChatsDays: orNull(form.visitorChatsDays),
    apiLogsDays: orNull(form.apiLogsDays),
    exemptPinned: form.exemptPinned,
    departments: Object.fromEntries(
      form.departments.map((rule) => [rule.id, { chatsDays: rule.days === '' ? 0 : rule.days }]),
    ),
  };
}

const inRange = (days: number) => Number.isInteger(days) && days >= 1 && days <= RetentionLimits.maxDays;

/**
 * The form's problems by field, as the server would find them: whole days within the limit, a
 * department picked once, and a department's period no longer than the domain's (only stricter).
 */
export function validateForm(form: RetentionForm, t: TFunction): Record<string, string> {
  const errors: Record<string, string> = {};
  const range = t('retention.errors.days_range', { max: RetentionLimits.maxDays });
  for (const field of PERIOD_FIELDS) {
    const days = form[field];
    if (days !== '' && !inRange(days)) errors[field] = range;
  }
  const seen = new Set<string>();
  form.departments.forEach((rule, i) => {
    if (!rule.id) errors[`departments.${i}.id`] = t('retention.errors.department_required');
    else if (seen.has(rule.id)) errors[`departments.${i}.id`] = t('retention.errors.department_twice');
    seen.add(rule.id);
    if (rule.days === '') errors[`departments.${i}.days`] = t('retention.errors.department_days_required');
    else if (!inRange(rule.days)) errors[`departments.${i}.days`] = range;
    else if (form.chatsDays !== '' && rule.days > form.chatsDays)
      errors[`departments.${i}.days`] = t('retention.errors.stricter', { max: form.chatsDays });
  });
  return errors;
}

/** Which periods got shorter (or set where there was none): what the next run deletes beyond before. */
export function deletesMore(
  before: RetentionSettings,
  after: RetentionSettings,
  t: TFunction,
  departmentName: (id: string) => string,
): string[] {
  const shorter = (was: number | null, now: number | null): now is number =>
    now !== null && (was === null || now < was);
  const lines: string[] = [];
  const periods: Array<[PeriodField, string]> = [
    ['chatsDays', 'retention.confirm.chats'],
    ['filesDays', 'retention.confirm.files'],
    ['visitorChatsDays', 'retention.confirm.visitor_chats'],
    ['apiLogsDays', 'retention.confirm.api_logs'],
  ];
  for (const [field, key] of periods) {
    const now = after[field];
    if (shorter(before[field], now)) lines.push(t(key, { count: now }));
  }
  for (const [id, rule] of Object.entries(after.departments)) {
    const was = before.departments[id]?.chatsDays ?? before.chatsDays;
    if (shorter(was, rule.chatsDays) && (after.chatsDays === null || rule.chatsDays < after.chatsDays))
      lines.push(
        t('retention.confirm.department', { count: rule.chatsDays, department: departmentName(id) }),
      );
  }
  if (before.exemptPinned && !after.exemptPinned && after.chatsDays !== null)
    lines.push(t('retention.confirm.pinned'));
  return lines;
}

/**
 * A refused save's field errors (`VALIDATION_FAILED` details), in the form's fields: the server
 * names a department's rule `departments.<id>…`, the form its row. Null when it is another error.
 */
export function serverFieldErrors(
  error: unknown,
  form: RetentionForm,
  t: TFunction,
): Record<string, string> | null {
  if (apiErrorCode(error) !== 'VALIDATION_FAILED') return null;
  const details = apiErrorDetails(error);
  if (!Array.isArray(details)) return null;
  const errors: Record<string, string> = {};
  for (const detail of details as unknown[]) {
    if (typeof detail !== 'object' || detail === null || !('path' in detail)) continue;
    const path = String(detail.path);
    const [head = '', id, ...rest] = path.split('.');
    if ((PERIOD_FIELDS as readonly string[]).includes(head)) {
      errors[head] ??= t('retention.errors.days_range', { max: RetentionLimits.maxDays });
    } else if (head === 'departments') {
      const i = form.departments.findIndex((rule) => rule.id === id);
      const field = rest[0] === 'chatsDays' ? 'days' : 'id';
      errors[i >= 0 ? `departments.${i}.${field}` : '_form'] ??= t(
        field === 'days' ? 'retention.errors.server_department_days' : 'retention.errors.server_department',
      );
    } else {
      errors._form ??= t('retention.errors.server_other', { field: path });
    }
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
