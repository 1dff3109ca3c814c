import { useState } from 'react';

/** A JSON value typed as text: valid JSON is passed on parsed; `allowText` passes other text as a string. */
export function JsonInput({ id, value, onChange, allowText, objectOnly, disabled, describedBy }: { id: string; value: unknown; onChange(v: unknown): void; allowText: boolean; objectOnly: boolean; disabled: boolean; describedBy: string }) {
  const [text, setText] = useState(() => (value === undefined ? '' : typeof value === 'string' && allowText ? value : JSON.stringify(value, null, 2)));
  const [error, setError] = useState<string | null>(null);
  const change = (t: string) => {
    setText(t);
    if (t.trim() === '') {
      setError(null);
      return onChange(undefined);
    }
    try {
      const parsed: unknown = JSON.parse(t);
      if (objectOnly && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))) throw new Error('must be a JSON object, such as {"key": "value"}');
      setError(null);
      onChange(parsed);
    } catch (err) {
      setError(allowText ? null : `Not valid: ${(err as Error).message}`);
      // The text goes on as it is, so the form's check (and a deploy) refuses it rather than
      // silently keeping the last valid value.
      onChange(t);
    }
  };
  return (
    <>
      <textarea id={id} className="mono" rows={4} value={text} disabled={disabled} aria-describedby={describedBy} aria-invalid={error !== null} onChange={(e) => change(e.target.value)} />
      {error && <p className="field-error">{error}</p>}
    </>
  );
}
