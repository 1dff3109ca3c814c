import { WorkflowCreate } from './WorkflowCreate';
import { useWorkflowToEdit } from './workflow-data';

/** Edits a saved workflow: loads it and the actions its steps run, then opens the workflow form prefilled. */
export function WorkflowEdit({ id }: { id: string }) {
  const { loaded, missing: error } = useWorkflowToEdit(id);

  if (error) return <p className="error" role="alert">{error}</p>;
  if (!loaded) return <p className="empty">Loading…</p>;
  return <WorkflowCreate workflow={loaded.workflow} stepComponents={loaded.components} />;
}
