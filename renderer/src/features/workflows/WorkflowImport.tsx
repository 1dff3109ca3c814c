import { type ChangeEvent, useState } from 'react';
import { messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { importWorkflow } from './workflow-data';

/** "Import…": a workflow file exported by Spout (`GET /v1/workflows/{id}/export`) becomes a new workflow (`POST /v1/workflows/import`). */
export function WorkflowImport({ className }: { className?: string }) {
  const navigate = useRoute((s) => s.navigate);
  const { toast } = useApp();
  const [busy, setBusy] = useState(false);

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.target;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      let definition: unknown;
      try {
        definition = JSON.parse(await file.text());
      } catch (err) {
        throw new Error(`${file.name} is not JSON: ${messageOf(err)}`);
      }
      const wf = await importWorkflow(definition);
      toast(`Imported ${wf.name}`);
      navigate(`/workflows/${encodeURIComponent(wf.id)}`);
    } catch (err) {
      toast(`Import failed: ${messageOf(err)}`, 'error');
    } finally {
      setBusy(false);
      // The same file can be picked again.
      input.value = '';
    }
  };

  return (
    <label className={`file-button ${className ?? ''}`}>
      {busy ? 'Importing…' : 'Import…'}
      <input type="file" accept=".json,application/json" className="sr-only" aria-label="Import a workflow file" disabled={busy} onChange={(e) => void pick(e)} />
    </label>
  );
}
