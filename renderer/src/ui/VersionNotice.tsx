import { diffLines } from 'diff';
import { useState } from 'react';
import { CHANGE_ORIGIN_LABELS, type VersionFields } from '../../../runtime/contract/change-api';
import { clockTime } from './format';

/** Who made a version and when, for people: "from the CLI at 02:13:05". */
export function madeBy(v: Pick<VersionFields, 'changed_by' | 'changed_at'>): string {
  return `${v.changed_by ? `from ${CHANGE_ORIGIN_LABELS[v.changed_by]}` : 'elsewhere'} at ${clockTime(v.changed_at * 1000)}`;
}

/**
 * Says that a newer version of what is being edited was saved elsewhere (the CLI, `spout dev`,
 * another window) while this screen holds unsaved changes, or that a save was refused for it (409);
 * offers to reload it (dropping the changes), to keep the changes (the next save replaces it), to
 * replace it now, and a diff of its text against the changes (docs/desktop-and-ui.md "Versions").
 */
export function VersionNotice({
  what,
  newer,
  base,
  refused,
  busy = false,
  diff,
  onReload,
  onKeepMine,
  onOverwrite,
}: {
  /** What is edited: "source", "workflow", "webhook". */
  what: string;
  newer: VersionFields;
  /** The version the changes here are based on. */
  base: number;
  /** A save was refused: nothing was saved. */
  refused: boolean;
  busy?: boolean;
  /** Their text and the text here, when there is text to compare. */
  diff?: { theirs: string; mine: string } | null;
  onReload(): void;
  onKeepMine(): void;
  onOverwrite(): void;
}) {
  const [showDiff, setShowDiff] = useState(false);
  const v = newer.version;
  return (
    <div className="version-notice" role={refused ? 'alert' : 'status'} data-testid="version-notice">
      <p>
        {refused ? (
          <>
            <strong>Not saved:</strong> this {what} is at <strong>version {v}</strong>, saved {madeBy(newer)}, and your changes are based on version {base}. Saving them would replace version {v}.
          </>
        ) : (
          <>
            <strong>Version {v}</strong> of this {what} was saved {madeBy(newer)} while you have unsaved changes (based on version {base}).
          </>
        )}
      </p>
      <div className="row wrap">
        <button type="button" onClick={onReload} disabled={busy}>
          Reload version {v}
        </button>
        {refused ? (
          <button type="button" className="danger-outline" onClick={onOverwrite} disabled={busy}>
            Overwrite version {v}
          </button>
        ) : (
          <button type="button" onClick={onKeepMine} disabled={busy} title={`Keep your changes; saving them replaces version ${v}`}>
            Keep mine
          </button>
        )}
        {diff && (
          <button type="button" aria-expanded={showDiff} onClick={() => setShowDiff((s) => !s)}>
            {showDiff ? 'Hide diff' : 'Show diff'}
          </button>
        )}
      </div>
      {diff && showDiff && <TextDiff theirs={diff.theirs} mine={diff.mine} label={`version ${v}`} />}
    </div>
  );
}

/** A line diff: `-` lines only in `theirs`, `+` lines only in `mine`. */
function TextDiff({ theirs, mine, label }: { theirs: string; mine: string; label: string }) {
  const parts = diffLines(theirs, mine);
  const same = parts.every((p) => !p.added && !p.removed);
  return (
    <div className="version-diff" role="region" aria-label={`Differences between ${label} and your changes`}>
      <p className="muted small-note">
        <span className="diff-del">− {label}</span> · <span className="diff-add">+ your changes</span>
      </p>
      {same ? (
        <p className="muted">The code is the same; other settings differ.</p>
      ) : (
        <pre>
          {parts.flatMap((p, i) =>
            p.value
              .replace(/\n$/, '')
              .split('\n')
              .map((line, j) => (
                <span key={`${i}:${j}`} className={p.added ? 'diff-add' : p.removed ? 'diff-del' : undefined}>
                  {p.added ? '+ ' : p.removed ? '- ' : '  '}
                  {line}
                  {'\n'}
                </span>
              )),
          )}
        </pre>
      )}
    </div>
  );
}
