import { useEffect } from 'react';
import { segments, useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { ItemList } from '../../ui/ItemList';
import { Link } from '../../ui/Link';
import { ListDetail, Welcome } from '../../ui/ListDetail';
import { ActiveBadge } from '../../ui/ResourceHeader';
import { WorkflowFromAction } from '../actions/WorkflowFromAction';
import { WorkflowCreate } from './WorkflowCreate';
import { WorkflowDetail } from './WorkflowDetail';
import { WorkflowEdit } from './WorkflowEdit';
import { WorkflowImport } from './WorkflowImport';

/** Workflows: the list beside the create form, the selected workflow (trigger, steps, runs), or its edit form (`/workflows/{id}/edit`). */
export function WorkflowsScreen() {
  const { path, query } = useRoute();
  const fromAction = query.get('action');
  const { workflows, workflowsLoaded, loadWorkflows } = useApp();
  const [, id, sub] = segments(path);

  useEffect(() => {
    void loadWorkflows();
    // Workflows created from the CLI or API appear without a reload.
    const timer = setInterval(() => void loadWorkflows(), 5000);
    return () => clearInterval(timer);
  }, [loadWorkflows]);

  const content =
    id === 'new' ? (
      fromAction ? (
        <WorkflowFromAction key={fromAction} id={fromAction} />
      ) : (
        <WorkflowCreate />
      )
    ) : id && sub === 'edit' ? (
      <WorkflowEdit key={id} id={id} />
    ) : id ? (
      <WorkflowDetail key={id} id={id} />
    ) : (
      <Welcome title="Workflows">
        <p>
          A workflow runs saved actions one after another when its trigger fires: an HTTP request, a source&apos;s events, a timer, or by hand. Each step can use what the trigger and earlier steps gave, as <code>{'{{steps.trigger.event.body}}'}</code> or{' '}
          <code>{'{{steps.<name>.$return_value}}'}</code>.
        </p>
        <div className="row">
          <Link to="/workflows/new" className="button primary">
            Create a workflow
          </Link>
          <WorkflowImport />
        </div>
      </Welcome>
    );

  return (
    <ListDetail
      title="Workflows"
      item="workflow"
      base="/workflows"
      hasDetail={Boolean(id)}
      list={
        <>
          <div className="row">
            <WorkflowImport className="small" />
            <span className="muted small-note">a workflow exported as JSON</span>
          </div>
          <ItemList label="Workflows" items={workflows} loaded={workflowsLoaded} empty="No workflows yet." href={(w) => `/workflows/${encodeURIComponent(w.id)}`} selectedId={id ?? null}>
            {(w) => (
              <>
                <span className="name">{w.name}</span>
                <ActiveBadge active={w.active} />
                <span className="id">{w.id}</span>
                <span className="stats">
                  {w.trigger.type} trigger · {w.steps.length} step{w.steps.length === 1 ? '' : 's'}
                </span>
              </>
            )}
          </ItemList>
        </>
      }
      detail={content}
    />
  );
}
