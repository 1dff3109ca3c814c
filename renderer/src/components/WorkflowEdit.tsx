import { useEffect, useState } from 'react';
import type { ComponentView } from '../../../runtime/contract/component-api';
import { ApiError, api, messageOf, type WorkflowView } from '../api';
import { WorkflowCreate } from './WorkflowCreate';

/** Edits a saved workflow: loads it and the actions its steps run, then opens the workflow form prefilled. */
export function WorkflowEdit({ id }: { id: string }) {
  const [loaded, setLoaded] = useState<{ workflow: WorkflowView; components: ComponentView[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const workflow = await api.getWorkflow(id);
      // Each step's action by id: the form needs its props to show the saved values in their inputs.
      const ids = [...new Set(workflow.steps.map((s) => s.component_id))];
      const components = await Promise.all(ids.map((cid) => api.getComponent(cid).catch(() => null)));
      if (!cancelled) setLoaded({ workflow, components: components.filter((c): c is ComponentView => c !== null) });
    })().catch((err: unknown) => !cancelled && setError(err instanceof ApiError && err.status === 404 ? `Workflow ${id} does not exist (any more).` : messageOf(err)));
    return () => {
      cancelled = true;
    };
  }, [id]);

  if (error) return <p className="error" role="alert">{error}</p>;
  if (!loaded) return <p className="empty">Loading…</p>;
  return <WorkflowCreate workflow={loaded.workflow} stepComponents={loaded.components} />;
}
