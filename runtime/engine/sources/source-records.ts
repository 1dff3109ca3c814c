// Deployed sources as metadata keeps them, and the index an endpoint request reads to find its
// source (rebuilt whenever sources change, never searched per request).
import type { ComponentLibrary } from '../../components/library';
import { newId } from '../../lib/ids';
import { uniqueSlug } from '../../lib/slug';
import type { ComponentRecord, Metadata, SourceRecord } from '../../store/metadata';
import { sourceProps } from './dynamic-props';

/** The source and prop behind an HTTP endpoint id. */
export interface EndpointTarget {
  source: SourceRecord;
  prop: string;
  customResponse: boolean;
}

/** Deployed sources' records in metadata, their components, and the endpoint index. */
export class SourceRecords {
  private readonly endpoints = new Map<string, EndpointTarget>();
  /** The same by lower-cased id (null where two ids fold alike): the SDK's workflows client lower-cases the URL it calls. */
  private readonly folded = new Map<string, EndpointTarget | null>();

  constructor(
    private readonly metadata: Metadata,
    private readonly library: ComponentLibrary,
  ) {}

  /** All deployed sources, oldest first. */
  list(): SourceRecord[] {
    return this.metadata.data.sources;
  }

  /** A source by id or name slug. */
  find(idOrSlug: string): SourceRecord | undefined {
    return this.list().find((s) => s.id === idOrSlug || s.name_slug === idOrSlug);
  }

  /** The component a source runs. */
  component(source: SourceRecord): ComponentRecord | undefined {
    return this.metadata.data.components.find((c) => c.id === source.component_id);
  }

  /** The source and prop behind an HTTP endpoint id, given as it is or lower-cased. */
  byEndpoint(endpointId: string): EndpointTarget | undefined {
    return this.endpoints.get(endpointId) ?? this.folded.get(endpointId) ?? undefined;
  }

  /** A name slug no other source has. */
  slugFor(name: string, exceptId?: string): string {
    return uniqueSlug(name, new Set(this.list().flatMap((s) => (s.id === exceptId ? [] : [s.name_slug]))));
  }

  /** Keeps a new source and its component, subscribing the auto-subscriptions' listeners to it (`POST /v1/auto_subscriptions`). */
  add(record: SourceRecord, component: ComponentRecord): void {
    this.library.remember(component);
    const data = this.metadata.data;
    data.sources.push(record);
    for (const auto of data.auto_subscriptions) {
      data.subscriptions.push({ id: newId('sub'), emitter_id: record.id, listener_id: auto.listener_id, event_name: auto.event_name, created_at: nowSeconds() });
    }
    this.reindex();
  }

  /** Replaces a source's record in place (callers hold it), keeping the component it now runs. */
  replace(source: SourceRecord, next: SourceRecord, component: ComponentRecord): void {
    this.library.remember(component);
    for (const key of Object.keys(source) as Array<keyof SourceRecord>) if (!(key in next)) delete source[key];
    Object.assign(source, next);
    this.reindex();
  }

  /** Forgets a source with its subscriptions, as emitter and as listener. */
  remove(sourceId: string): void {
    const data = this.metadata.data;
    data.sources = data.sources.filter((s) => s.id !== sourceId);
    data.subscriptions = data.subscriptions.filter((s) => s.emitter_id !== sourceId && s.listener_id !== sourceId);
    data.auto_subscriptions = data.auto_subscriptions.filter((a) => a.listener_id !== sourceId);
    this.reindex();
  }

  /** Writes the records to disk. */
  save(): Promise<void> {
    return this.metadata.write();
  }

  /** Rebuilds the endpoint index after sources change (it is read on every endpoint request). */
  reindex(): void {
    this.endpoints.clear();
    this.folded.clear();
    for (const source of this.list()) {
      const props = sourceProps(source, this.component(source));
      for (const [prop, id] of Object.entries(source.endpoints)) {
        const customResponse = props.find((p) => p.name === prop)?.customResponse === true;
        const target = { source, prop, customResponse };
        this.endpoints.set(id, target);
        const lower = id.toLowerCase();
        this.folded.set(lower, this.folded.has(lower) ? null : target);
      }
    }
  }
}

/** Now, in the whole seconds records keep. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
