import { useId, useState } from 'react';
import { ErrorText } from '../../ui/ErrorText';
import { useSavedFilters } from './saved-filters';

/**
 * The stream's saved filters (`/v1/stream/filters`): pick one to apply it, save the current
 * filter under a name (the same name replaces it), delete the one picked.
 */
export function SavedFilters({ filter, apply }: { filter: string; apply(filter: string): void }) {
  const id = useId();
  const { saved, error, save: saveOne, remove } = useSavedFilters();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');

  const picked = saved?.find((f) => f.filter === filter) ?? null;
  const save = async () => {
    const n = name.trim();
    if (!n || !saved) return;
    if (await saveOne({ name: n, filter })) {
      setNaming(false);
      setName('');
    }
  };

  return (
    <div className="toolbar saved-filters">
      <label htmlFor={`${id}-pick`}>Saved filters</label>
      <select
        id={`${id}-pick`}
        value={picked?.name ?? ''}
        disabled={!saved}
        onChange={(e) => {
          const f = saved?.find((s) => s.name === e.target.value);
          if (f) apply(f.filter);
        }}
      >
        <option value="">{saved?.length ? 'Pick one…' : 'None saved yet'}</option>
        {saved?.map((f) => (
          <option key={f.name} value={f.name}>
            {f.name}
          </option>
        ))}
      </select>
      {picked && (
        <button type="button" className="small" onClick={() => void remove(picked.name)}>
          Delete “{picked.name}”
        </button>
      )}
      {naming ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor={`${id}-name`} className="sr-only">
            Name of the saved filter
          </label>
          <input id={`${id}-name`} placeholder="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} />
          <button type="submit" className="small primary" disabled={!name.trim()}>
            Save
          </button>
          <button type="button" className="small" onClick={() => setNaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="small" disabled={!filter.trim() || !saved} onClick={() => setNaming(true)}>
          Save this filter
        </button>
      )}
      <ErrorText text={error} />
    </div>
  );
}
