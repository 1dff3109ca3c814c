import { useCallback, useEffect, useState } from 'react';
import { ApiError, messageOf } from '../../api/client';
import { SourceEditor, type Origin } from './SourceEditor';
import { NEW_SOURCE_CODE } from './template';
import { readRegistryComponent } from './source-data';

/**
 * The create form: from the editor, or prefilled from a spec 4.5 link (`/sources?action=create&key=…`
 * reads the registry component; `&url=…` deploys from that URL).
 */
export function SourceCreate({ registryKey, url }: { registryKey: string | null; url: string | null }) {
  const [origin, setOrigin] = useState<Origin | null>(registryKey ? null : url ? { kind: 'url', url } : { kind: 'code', code: NEW_SOURCE_CODE, filename: 'component.mjs' });
  const [notice, setNotice] = useState<string | null>(null);
  const [isAction, setIsAction] = useState(false);
  const onTypeChange = useCallback((type: string | null) => setIsAction(type === 'action'), []);

  useEffect(() => {
    if (!registryKey) return;
    let cancelled = false;
    setOrigin(null);
    readRegistryComponent(registryKey)
      .then((c) => {
        if (cancelled) return;
        setOrigin({ kind: 'code', code: c.code, filename: /\.(ts|mts|cjs)$/.test(c.filename) ? (c.filename.endsWith('.cjs') ? 'component.cjs' : 'component.ts') : 'component.mjs' });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        setNotice(err instanceof ApiError && err.status === 404 ? `No component with key "${registryKey}" in the registry. Start from the editor instead.` : `Could not read "${registryKey}" from the registry: ${messageOf(err)}`);
        setOrigin({ kind: 'code', code: NEW_SOURCE_CODE, filename: 'component.mjs' });
      });
    return () => {
      cancelled = true;
    };
  }, [registryKey]);

  return (
    <div className="source-create">
      <header className="page-head">
        <h1 tabIndex={-1}>{isAction ? 'Test-run an action' : 'New source'}</h1>
      </header>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {origin ? <SourceEditor key={`${origin.kind}:${registryKey ?? url ?? ''}`} source={null} origin={origin} onTypeChange={onTypeChange} /> : <p className="empty">Loading {registryKey} from the registry…</p>}
    </div>
  );
}
