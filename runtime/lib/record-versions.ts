// The version of a record two places may edit (a source, a workflow, a webhook): kept in the
// record, counted up by each change, checked against the version a save was based on.
import type { ChangeOrigin, VersionConflictView, VersionFields } from '../contract/change-api';
import { VersionConflict } from './error-kinds';

/** What a versioned record keeps; records written before versions have none of it (version 1). */
export interface Versioned {
  version?: number;
  changed_by?: ChangeOrigin;
  /** Epoch seconds. */
  changed_at?: number;
  updated_at: number;
}

/** Who makes a change, and the version it was based on (none: replace whatever is there, as before). */
export interface ChangeBy {
  by: ChangeOrigin;
  base_version?: number;
}

/** The fields of a newly created record: version 1. */
export function firstVersion(by: ChangeOrigin, now: number): Required<Pick<Versioned, 'version' | 'changed_by' | 'changed_at'>> {
  return { version: 1, changed_by: by, changed_at: now };
}

/** The fields of a record after one more change. */
export function nextVersion(record: Versioned, by: ChangeOrigin, now: number): Required<Pick<Versioned, 'version' | 'changed_by' | 'changed_at'>> {
  return { version: (record.version ?? 1) + 1, changed_by: by, changed_at: now };
}

/** The version fields of a view. */
export function versionFields(record: Versioned): VersionFields {
  return { version: record.version ?? 1, changed_by: record.changed_by ?? null, changed_at: record.changed_at ?? record.updated_at };
}

/** Refuses a change based on another version than the record's (VersionConflict, a 409); no base: nothing to check. */
export function requireBase(kind: VersionConflictView['kind'], record: Versioned & { id: string; name: string }, change: ChangeBy | undefined): void {
  const base = change?.base_version;
  const fields = versionFields(record);
  if (base === undefined || base === fields.version) return;
  throw new VersionConflict({ kind, id: record.id, name: record.name, current_version: fields.version, base_version: base, changed_by: fields.changed_by, changed_at: fields.changed_at });
}
