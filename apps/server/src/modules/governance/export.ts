import type { Readable } from 'node:stream';
import { type Export, ExportLimits, type ExportRequest } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { notFound } from '../../lib/errors.ts';
import { randomBase62 } from '../../lib/random-id.ts';
import { callerLocale, type LocaleHints } from '../accounts/locale.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { exportZip, safeSegment } from './export-zip.ts';
import { type ExportRow, type ExportsStore, exportsStore } from './exports-store.ts';

/*
 * Exports (docs/ARCHITECTURE.md#export-and-erasure): asking records who may download what until
 * when; downloading writes the ZIP into the reply. Only the person who asked downloads it, with
 * their own credentials, like every other protected file.
 */

export interface ExportsState {
  ctx: AppContext;
  store: ExportsStore;
}

export const createExportsState = (ctx: AppContext): ExportsState => ({ ctx, store: exportsStore(ctx.db) });

const exportNotFound = () => notFound('Export not found');

const HOUR_MS = 3_600_000;

function toExport(row: ExportRow): Export {
  return {
    exportId: row.id,
    scope: row.scope,
    subjectId: row.subjectId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    downloadUrl: row.scope === 'me' ? `/api/v1/me/export/${row.id}` : `/api/v1/export/${row.id}`,
  };
}

async function insert(
  s: ExportsState,
  caller: UserCaller,
  subject: { scope: ExportRow['scope']; subjectId: string; domainId: string },
) {
  const now = new Date();
  return s.store.insert({
    id: `exp_${randomBase62(22)}`,
    domainId: subject.domainId,
    requestedBy: caller.user.id,
    scope: subject.scope,
    subjectId: subject.subjectId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ExportLimits.expiresHours * HOUR_MS),
  });
}

/** POST /api/v1/me/export: the caller's own data, theirs to download for ExportLimits.expiresHours. */
export async function createMyExport(s: ExportsState, caller: UserCaller): Promise<Export> {
  return toExport(
    await insert(s, caller, { scope: 'me', subjectId: caller.user.id, domainId: caller.domain.id }),
  );
}

/**
 * POST /api/v1/export (Admin of the subject's domain, SuperAdmin any): a person's or a department's
 * data for a data-subject request, recorded in the audit log with the export.
 */
export async function createExport(
  s: ExportsState,
  caller: UserCaller,
  request: ExportRequest,
  meta: AuditMeta,
): Promise<Export> {
  const subject = await s.ctx.services.accounts.exportSubject(caller, request);
  const row = await insert(s, caller, subject);
  await recordAudit(s.ctx.db, caller, meta, {
    action: 'export.create',
    targetType: subject.scope,
    targetId: subject.subjectId,
    domainId: subject.domainId,
    after: { exportId: row.id, scope: row.scope, expiresAt: row.expiresAt.toISOString() },
  });
  return toExport(row);
}

/**
 * The ZIP of an export the caller asked for, by the route it was asked on (`mine`: /me/export),
 * until it expires; anyone else's, an expired one or one of the other route: 404.
 */
export async function openExport(
  s: ExportsState,
  caller: UserCaller,
  id: string,
  mine: boolean,
  reader: { hints: LocaleHints; timeZone?: string | undefined; signal: AbortSignal },
): Promise<{ fileName: string; body: Readable }> {
  const row = await s.store.findLive(id, caller.user.id, new Date());
  if (!row || (row.scope === 'me') !== mine) throw exportNotFound();
  const people = await s.ctx.services.accounts.subjectPeople(row);
  // The person was erased since: nothing of theirs is left to give.
  if (row.scope !== 'department' && people.length === 0) throw exportNotFound();
  const day = row.createdAt.toISOString().slice(0, 10);
  const who = row.scope === 'department' ? row.subjectId : (people[0]?.email ?? row.subjectId);
  const body = exportZip(
    s.ctx,
    {
      exportId: row.id,
      scope: row.scope,
      subjectId: row.subjectId,
      createdAt: row.createdAt,
      people,
      folders: row.scope === 'department',
      locale: callerLocale(caller, reader.hints),
      timeZone: reader.timeZone,
    },
    reader.signal,
  );
  return { fileName: `assistente-${safeSegment(who, 'export')}-${day}.zip`, body };
}
