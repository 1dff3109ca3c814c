// What runs behind an HTTP endpoint id: a deployed source's `$.interface.http` prop, or a
// workflow's HTTP trigger. The `/e/` handler finds the endpoint, reads the request, and hands it
// over once; it gets back the finished record.
import type { EndpointExchange } from '../../contract/endpoint-exchange';
import type { InvocationView } from '../../contract/invocation-api';
import type { WorkflowRunRecord } from '../../store/workflow-run-log';
import type { SourceManager } from '../sources/source-manager';
import type { WorkflowManager } from '../workflows/workflow-manager';

/** An active source or workflow behind an endpoint id. */
export interface HttpEndpoint {
  /** Runs it with the request; resolves once the request is answered and the run recorded. */
  run(exchange: EndpointExchange): Promise<InvocationView | WorkflowRunRecord>;
}

/** Finds what an endpoint id runs. */
export class HttpEndpoints {
  constructor(
    private readonly sources: SourceManager,
    private readonly workflows: WorkflowManager,
  ) {}

  /** The active source or workflow behind `endpointId`, if any. */
  find(endpointId: string): HttpEndpoint | undefined {
    const target = this.sources.byEndpoint(endpointId);
    if (target) {
      const { source, customResponse } = target;
      if (!source.active) return undefined;
      return { run: async (exchange) => (await this.sources.invoke(source, exchange.event, { trigger: { kind: 'http', exchange, customResponse }, replayOf: exchange.replayOf, hops: exchange.hops })).record };
    }
    const workflow = this.workflows.byEndpoint(endpointId);
    if (!workflow) return undefined;
    return {
      // A workflow answers once its run has ended, or as soon as a step calls $.respond.
      run: async (exchange) => {
        const run = await this.workflows.run(workflow, exchange.event, { onRespond: (r) => exchange.respond(r), hops: exchange.hops });
        const customResponse = workflow.trigger.type === 'http' && workflow.trigger.custom_response;
        const failed = run.steps.find((s) => s.error);
        const why = failed ? `step ${failed.name} failed: ${failed.error!.message}` : 'no step called $.respond()';
        exchange.finish(customResponse ? `the workflow did not respond: ${why}` : null);
        return run;
      },
    };
  }
}
