import { type FormEvent, useEffect, useState } from 'react';
import type { DataStoreView } from '../../../../runtime/contract/component-api';
import { messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { when } from '../../ui/format';
import { TableHead } from '../../ui/TableHead';
import { clearRecords, deleteDataStore, deleteRecord, putRecord, renameDataStore, useRecords } from './data-store-data';

/** A data store's records: list, put (JSON value, optional TTL), delete, clear; rename and delete the store. */
export function DataStoreRecords({ store }: { store: DataStoreView }) {
  const navigate = useRoute((s) => s.navigate);
  const toast = useApp((s) => s.toast);
  const { records, total, loaded, error, reload: load, more } = useRecords(store.id);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [ttl, setTtl] = useState('');
  const [confirm, setConfirm] = useState<null | 'clear' | 'delete'>(null);
  const [name, setName] = useState(store.name);

  useEffect(() => {
    if (error) toast(error, 'error');
  }, [error, toast]);

  const put = async (e: FormEvent) => {
    e.preventDefault();
    let parsed: unknown = value;
    try {
      parsed = JSON.parse(value);
    } catch {
      // plain text is stored as a string
    }
    try {
      await putRecord(store.id, key, parsed, ttl ? Number(ttl) : null);
      setKey('');
      setValue('');
      setTtl('');
      await load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };
  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      toast(done);
      await load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  return (
    <div>
      <header className="page-head">
        <div>
          <h1 tabIndex={-1}>{store.name}</h1>
          <p className="muted">
            <code>{store.id}</code> · {store.record_count} records
          </p>
        </div>
        <div className="row">
          <button type="button" onClick={() => setConfirm('clear')} disabled={records.length === 0}>
            Clear records
          </button>
          <button type="button" className="danger-outline" onClick={() => setConfirm('delete')}>
            Delete store
          </button>
        </div>
      </header>
      <form className="row" onSubmit={(e) => (e.preventDefault(), void act(() => renameDataStore(store.id, name), 'Renamed'))}>
        <label htmlFor="ds-rename">Name</label>
        <input id="ds-rename" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="small">
          Rename
        </button>
      </form>
      <form className="card form" onSubmit={(e) => void put(e)} aria-label="Put a record">
        <div className="row wrap">
          <label htmlFor="rec-key">Key</label>
          <input id="rec-key" required value={key} onChange={(e) => setKey(e.target.value)} />
          <label htmlFor="rec-ttl">TTL (s)</label>
          <input id="rec-ttl" type="number" min={0} step="any" value={ttl} onChange={(e) => setTtl(e.target.value)} />
        </div>
        <label htmlFor="rec-value">Value (JSON, or text)</label>
        <textarea id="rec-value" className="mono" rows={3} value={value} onChange={(e) => setValue(e.target.value)} />
        <div className="row end">
          <button type="submit" className="primary">
            Put record
          </button>
        </div>
      </form>
      {loaded && (
        <p className="muted" data-testid="record-count">
          {records.length} of {total} record{total === 1 ? '' : 's'}
        </p>
      )}
      {records.length === 0 ? (
        <p className="empty">No records.</p>
      ) : (
        <table className="table" aria-label="Records">
          <TableHead columns={['Key', 'Value', 'Expires']} />
          <tbody>
            {records.map((r) => (
              <tr key={r.key}>
                <td>
                  <code>{r.key}</code>
                </td>
                <td>
                  <pre className="cell">{JSON.stringify(r.value)}</pre>
                </td>
                <td>{r.expires_at ? when(r.expires_at) : 'never'}</td>
                <td>
                  <button type="button" className="small" onClick={() => void act(() => deleteRecord(store.id, r.key), 'Record deleted')}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {records.length < total && (
        <button type="button" className="small" onClick={more}>
          Load more records ({total - records.length} not shown)
        </button>
      )}
      {confirm && (
        <ConfirmDialog
          title={confirm === 'clear' ? `Clear ${store.name}?` : `Delete ${store.name}?`}
          body={confirm === 'clear' ? 'Every record is deleted.' : 'The store and its records are deleted. A source configured with it keeps the service from deleting it.'}
          confirmLabel={confirm === 'clear' ? 'Clear records' : 'Delete store'}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const what = confirm;
            setConfirm(null);
            if (what === 'clear') void act(() => clearRecords(store.id), 'Cleared');
            else
              void act(async () => {
                await deleteDataStore(store.id);
                navigate('/data-stores');
              }, 'Store deleted');
          }}
        />
      )}
    </div>
  );
}
