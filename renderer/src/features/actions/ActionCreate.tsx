import { useState } from 'react';
import { useRoute } from '../../app/router';
import { ComponentGallery } from '../gallery/ComponentGallery';
import type { Origin } from '../sources/editor-store';
import { ActionEditor } from './ActionEditor';
import { actionDraft, actionPath } from './action-data';
import { NEW_ACTION_CODE } from './template';

const START: Origin = { kind: 'code', code: NEW_ACTION_CODE, filename: 'action.mjs' };

/** New action: the editor on the action template (or a component of the gallery); saving moves to the saved action's page. */
export function ActionCreate() {
  const navigate = useRoute((s) => s.navigate);
  const [browsing, setBrowsing] = useState(false);
  return (
    <div className="source-create">
      <header className="page-head">
        <h1 tabIndex={-1}>New action</h1>
        <button type="button" aria-expanded={browsing} aria-controls="component-gallery" onClick={() => setBrowsing(!browsing)}>
          {browsing ? 'Hide the gallery' : 'Start from a registry action…'}
        </button>
      </header>
      {browsing && (
        <div id="component-gallery">
          <ComponentGallery type="action" choosing={null} onChoose={(item) => navigate(`/actions/${encodeURIComponent(item.ref)}`)} />
        </div>
      )}
      <ActionEditor
        origin={START}
        component={null}
        onSaved={(c) => {
          // The template starts afresh next time: the edits live on as the saved action.
          void actionDraft(START, null).actions.discard();
          navigate(actionPath(c));
        }}
      />
    </div>
  );
}
