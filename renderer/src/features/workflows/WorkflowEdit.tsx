import { LoadState } from '../../ui/LoadState';
import { WorkflowCreate } from './WorkflowCreate';
import { useWorkflowToEdit } from './workflow-data';

/** Edits a saved workflow: loads it and the actions its steps run, then opens the workflow form prefilled. */
export function WorkflowEdit({ id }: { id: string }) {
  const { loaded, missing: error, reload } = useWorkflowToEdit(id);

  if (error || !loaded) return <LoadState error={error} />;
  // A reloaded version starts the form afresh.
  return <WorkflowCreate key={loaded.workflow.version} workflow={loaded.workflow} stepComponents={loaded.components} onReload={() => void reload()} />;
}
