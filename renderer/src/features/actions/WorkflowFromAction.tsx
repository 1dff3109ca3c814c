import { WorkflowCreate } from '../workflows/WorkflowCreate';
import { useActionComponent } from './action-data';

/** A new workflow whose first step is a saved action (`/workflows/new?action=sc_…`, from the action's page). */
export function WorkflowFromAction({ id }: { id: string }) {
  const { component, error } = useActionComponent(id);
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!component) return <p className="empty">Loading {id}…</p>;
  return <WorkflowCreate firstAction={component} />;
}
