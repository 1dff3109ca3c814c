// The unsaved part of each editor draft, kept in this browser's localStorage (`spout.draft.<key>`)
// so a reload loses nothing (docs/desktop-and-ui.md). Storage may be full or off: every call says
// so or gives nothing instead of throwing.

import type { ComponentFile } from '../../../../runtime/contract/component-api';

/** What of a draft is kept across reloads: the edits, not what the service answers. */
export interface KeptDraft {
  /** The code as typed; null when the code is not edited. */
  code: string | null;
  /** A component of several files: each as typed, its own file, and the one open (absent or null for single-file code). */
  files?: { files: ComponentFile[]; entry_file: string; open: string } | null;
  filename: string;
  name: string;
  /** The form's values; null when the form is not edited. */
  values: Record<string, unknown> | null;
  savedAt: number;
}

const DRAFT_PREFIX = 'spout.draft.';

/** The draft kept for `key` in this browser, if any. */
export function keptDraft(key: string): KeptDraft | null {
  try {
    const text = window.localStorage.getItem(DRAFT_PREFIX + key);
    return text ? (JSON.parse(text) as KeptDraft) : null;
  } catch {
    return null;
  }
}

/** Keeps a draft's edits (null: forgets them, once saved or discarded); false when storage refused. */
export function keepDraft(key: string, kept: KeptDraft | null): boolean {
  try {
    if (kept === null) window.localStorage.removeItem(DRAFT_PREFIX + key);
    else window.localStorage.setItem(DRAFT_PREFIX + key, JSON.stringify(kept));
    return true;
  } catch {
    return false;
  }
}

/** Keys of the drafts with unsaved edits kept in this browser (`source:dc_…`, `new:…`). */
export function keptDraftKeys(): string[] {
  const keys: string[] = [];
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const k = window.localStorage.key(i);
      if (k?.startsWith(DRAFT_PREFIX)) keys.push(k.slice(DRAFT_PREFIX.length));
    }
  } catch {
    // storage disabled: no drafts kept
  }
  return keys;
}
