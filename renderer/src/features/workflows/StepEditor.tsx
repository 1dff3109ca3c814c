import { useState } from 'react';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { StepRunView } from '../../../../runtime/contract/workflow-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { Modal } from '../../ui/ConfirmDialog';
import { ErrorText } from '../../ui/ErrorText';
import { Link } from '../../ui/Link';
import { ComponentGallery } from '../gallery/ComponentGallery';
import { savedComponent } from '../gallery/gallery-data';
import type { Suggestion } from '../props/ExpressionInput';
import { PropForm } from '../props/PropForm';
import { configuredProps } from '../props/prop-values';
import { StepTest } from './StepTest';
import { stepFormProps, stepNameFor } from './workflow';
import type { SampleEvent } from './workflow-data';

/** A workflow step being written: its name, its saved action, and each prop's value (a `{{…}}` expression is a string). */
export interface StepDraft {
  /** Stable React key (steps move). */
  key: number;
  name: string;
  componentId: string;
  values: Record<string, unknown>;
  /** The action's props after a `reloadProps` change (else its saved `configurable_props`). */
  props?: ConfigurableProp[];
  /** The user typed a name: choosing an action no longer renames the step. */
  nameEdited: boolean;
  /** A saved step being edited: the service keeps its masked secrets only while name and action stay these. */
  saved?: { name: string; componentId: string };
}

/** What testing a step needs: the saved workflow, events to choose from, earlier steps' test outputs, and this step's last test. */
export interface StepTesting {
  workflowId: string | null;
  samples: SampleEvent[];
  earlier: Record<string, unknown>;
  result: StepRunView | null;
  onResult(r: StepRunView | null): void;
}

/**
 * One step of the workflow form: its name (`steps.<name>` for later steps), the saved action it
 * runs, and that action's props in the action's own form, where each value may be a `{{steps…}}`
 * expression. Steps move up and down with buttons (keyboard operable), can be removed, and tested alone.
 */
export function StepEditor({
  index,
  count,
  draft,
  actions,
  takenNames,
  suggestions,
  testing,
  nameProblem,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  draft: StepDraft;
  actions: ComponentView[];
  takenNames: string[];
  suggestions: Suggestion[];
  testing: StepTesting;
  nameProblem: string | null;
  /** Problems the service named for this step: `name`, `component_id`, `configured_props.<prop>` or `''`. */
  errors: Record<string, string>;
  onChange(d: StepDraft): void;
  onMove(delta: -1 | 1): void;
  onRemove(): void;
}) {
  const base = `step-${draft.key}`;
  const loadComponents = useApp((s) => s.loadComponents);
  const component = actions.find((c) => c.id === draft.componentId);
  const props = component ? stepFormProps(draft.props ?? (component.configurable_props as ConfigurableProp[])) : [];
  const propErrors = Object.fromEntries(Object.entries(errors).flatMap(([k, v]) => (k.startsWith('configured_props.') ? [[k.slice('configured_props.'.length), v]] : [])));
  const label = `Step ${index + 1}`;
  const nameError = nameProblem ?? errors.name;

  const [browsing, setBrowsing] = useState(false);
  const [opening, setOpening] = useState<string | null>(null);
  const [browseError, setBrowseError] = useState<string | null>(null);
  const choose = (id: string, picked?: ComponentView) => {
    const c = picked ?? actions.find((a) => a.id === id);
    const keep = c ? Object.fromEntries(Object.entries(draft.values).filter(([k]) => c.configurable_props.some((p) => p.name === k))) : {};
    onChange({ ...draft, componentId: id, values: keep, props: undefined, name: c && !draft.nameEdited ? stepNameFor(c.name, takenNames) : draft.name });
  };

  return (
    <fieldset className="card step-card" data-step={draft.name}>
      {browsing && (
        <Modal labelledBy={`${base}-gallery-h`} className="dialog wide" onClose={() => setBrowsing(false)}>
          <div className="row">
            <h2 id={`${base}-gallery-h`} className="grow">
              An action for {label}
            </h2>
            <button type="button" className="small" onClick={() => setBrowsing(false)}>
              Cancel
            </button>
          </div>
          <ComponentGallery
            type="action"
            choosing={opening}
            onChoose={(item) => {
              setOpening(item.ref);
              setBrowseError(null);
              // A registry action is saved first: a step runs a saved component.
              savedComponent(item)
                .then(async (c) => {
                  await loadComponents();
                  choose(c.id, c);
                  setBrowsing(false);
                })
                .catch((err: unknown) => setBrowseError(messageOf(err)))
                .finally(() => setOpening(null));
            }}
          />
          <ErrorText text={browseError} />
        </Modal>
      )}
      <legend>{label}</legend>
      <div className="row wrap step-head">
        <div className="field">
          <label htmlFor={`${base}-name`}>Step name</label>
          <input id={`${base}-name`} className="mono" value={draft.name} aria-invalid={nameError ? true : undefined} aria-describedby={`${base}-name-desc`} onChange={(e) => onChange({ ...draft, name: e.target.value, nameEdited: true })} />
          <span id={`${base}-name-desc`} className="muted small-note">
            Later steps read it as <code>{`{{steps.${draft.name || 'name'}.$return_value}}`}</code>
          </span>
          {nameError && (
            <p className="field-error" role="alert">
              {nameError}
            </p>
          )}
        </div>
        <div className="field grow">
          <label htmlFor={`${base}-component`}>Action</label>
          <select id={`${base}-component`} value={draft.componentId} onChange={(e) => choose(e.target.value)} aria-invalid={errors.component_id ? true : undefined}>
            <option value="">{actions.length ? 'Choose a saved action…' : 'No saved actions yet: browse the registry'}</option>
            {actions.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} {c.version} ({c.key ?? c.id})
              </option>
            ))}
          </select>
          <button type="button" className="small link-button" onClick={() => setBrowsing(true)}>
            Browse actions…
          </button>
          {errors.component_id && (
            <p className="field-error" role="alert">
              {errors.component_id}
            </p>
          )}
        </div>
        <div className="row step-buttons">
          <button type="button" className="small" aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => onMove(-1)}>
            ↑
          </button>
          <button type="button" className="small" aria-label={`Move ${label} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
            ↓
          </button>
          <button type="button" className="small danger-outline" aria-label={`Remove ${label}`} onClick={onRemove}>
            Remove
          </button>
        </div>
      </div>
      {!component ? (
        actions.length === 0 && (
          <p className="muted">
            Actions you check or test-run in the <Link to="/sources/new">editor</Link> are saved and listed here.
          </p>
        )
      ) : (
        <>
          {component.description && <p className="muted">{component.description}</p>}
          {props.length === 0 ? (
            <p className="empty">This action has no props to configure.</p>
          ) : (
            <PropForm
              props={props}
              values={draft.values}
              configureTarget={{ id: component.id }}
              source={null}
              errors={propErrors}
              idPrefix={`${base}-prop`}
              expressions={{ suggestions }}
              onChange={(values) => onChange({ ...draft, values })}
              onPropsChange={(next) => onChange({ ...draft, props: next })}
            />
          )}
          <StepTest
            base={base}
            workflowId={testing.workflowId}
            stepName={draft.saved?.name ?? null}
            samples={testing.samples}
            result={testing.result}
            onResult={testing.onResult}
            request={() => ({ component_id: draft.componentId, configured_props: configuredProps(props, draft.values), steps: testing.earlier })}
          />
        </>
      )}
      {errors[''] && (
        <p className="field-error" role="alert">
          {errors['']}
        </p>
      )}
    </fieldset>
  );
}
