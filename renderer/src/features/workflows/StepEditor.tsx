import { useState } from 'react';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { Modal } from '../../ui/ConfirmDialog';
import { ErrorText } from '../../ui/ErrorText';
import { Link } from '../../ui/Link';
import { ComponentGallery } from '../gallery/ComponentGallery';
import { savedComponent } from '../gallery/gallery-data';
import { StepPropField } from './StepPropField';
import { stepFormProps, stepNameFor } from './workflow';

/** A workflow step being written: its name, its saved action, and each prop's text. */
export interface StepDraft {
  /** Stable React key (steps move). */
  key: number;
  name: string;
  componentId: string;
  texts: Record<string, string>;
  /** The user typed a name: choosing an action no longer renames the step. */
  nameEdited: boolean;
  /** A saved step being edited: the service keeps its masked secrets only while name and action stay these. */
  saved?: { name: string; componentId: string };
}

/**
 * One step of the workflow form: its name (`steps.<name>` for later steps), the saved action it
 * runs, and that action's props as text that may hold `{{steps…}}` references. Steps move up and
 * down with buttons (keyboard operable), and can be removed.
 */
export function StepEditor({
  index,
  count,
  draft,
  actions,
  takenNames,
  references,
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
  references: string[];
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
  const props = component ? stepFormProps(component.configurable_props as ConfigurableProp[]) : [];
  const label = `Step ${index + 1}`;
  const nameError = nameProblem ?? errors.name;

  const [browsing, setBrowsing] = useState(false);
  const [opening, setOpening] = useState<string | null>(null);
  const [browseError, setBrowseError] = useState<string | null>(null);
  const choose = (id: string, picked?: ComponentView) => {
    const c = picked ?? actions.find((a) => a.id === id);
    const keep = c ? Object.fromEntries(Object.entries(draft.texts).filter(([k]) => c.configurable_props.some((p) => p.name === k))) : {};
    onChange({ ...draft, componentId: id, texts: keep, name: c && !draft.nameEdited ? stepNameFor(c.name, takenNames) : draft.name });
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
            <div className="prop-form">
              {props.map((p) => (
                <StepPropField key={p.name} prop={p} id={`${base}-prop-${p.name}`} text={draft.texts[p.name] ?? ''} references={references} error={errors[`configured_props.${p.name}`]} onChange={(text) => onChange({ ...draft, texts: { ...draft.texts, [p.name]: text } })} />
              ))}
            </div>
          )}
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
