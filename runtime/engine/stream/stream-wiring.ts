// The stream's reader, given the stores and how sources, actions and workflows are named.
import type { ComponentLibrary } from '../../components/library';
import type { MessageSummary } from '../../contract/delivery-protocol';
import type { EventStore } from '../../store/event-store';
import type { InvocationStore } from '../../store/invocation-store';
import type { Metadata } from '../../store/metadata';
import type { RunLog } from '../../store/workflow-run-log';
import type { SourceManager } from '../sources/source-manager';
import type { WorkflowManager } from '../workflows/workflow-manager';
import { StreamReader } from './stream-reader';
import type { StreamTarget } from './stream-rows';

export interface StreamParts {
  invocations: InvocationStore;
  events: EventStore;
  runs: RunLog;
  sources: SourceManager;
  library: ComponentLibrary;
  workflows: WorkflowManager;
  /** The delivery port's lookup of events' messages. */
  delivery: { messagesFor(eventIds: string[]): Promise<MessageSummary[]> };
  metadata: Metadata;
}

/** How a workflow's runs were triggered, in the stream's words. */
const WORKFLOW_TRIGGERS: Record<string, string> = { http: 'http', timer: 'timer', source: 'event', manual: 'run_now' };

/** Builds the stream's reader over the service's parts. */
export function createStream(parts: StreamParts): StreamReader {
  return new StreamReader({
    invocations: parts.invocations,
    events: parts.events,
    runs: parts.runs,
    target(id: string): StreamTarget {
      const source = parts.sources.find(id);
      if (source) return { type: 'source', id, name: source.name };
      const workflow = parts.workflows.find(id);
      if (workflow) return { type: 'workflow', id, name: workflow.name };
      const component = parts.library.find(id);
      if (component) return { type: 'action', id, name: component.name };
      return { type: id.startsWith('p_') ? 'workflow' : id.startsWith('dc_') ? 'source' : 'action', id, name: id };
    },
    workflowTrigger: (id) => {
      const type = parts.workflows.find(id)?.trigger.type;
      return type ? (WORKFLOW_TRIGGERS[type] ?? null) : null;
    },
    messagesFor: (ids) => parts.delivery.messagesFor(ids),
    webhookActive: (id) => parts.metadata.data.webhooks.find((w) => w.id === id)?.active ?? false,
  });
}
