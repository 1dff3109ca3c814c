import { type FormEvent, useEffect, useState } from 'react';
import { messageOf } from '../../api/client';
import { segments, useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { ItemList } from '../../ui/ItemList';
import { ListDetail, Welcome } from '../../ui/ListDetail';
import { DataStoreRecords } from './DataStoreRecords';
import { createDataStore } from './data-store-data';

/** Data stores: account-level key-value stores behind `data_store` props. */
export function DataStoresScreen() {
  const { path, navigate } = useRoute();
  const { dataStores, loadDataStores, toast } = useApp();
  const [, id] = segments(path);
  const [name, setName] = useState('');

  useEffect(() => {
    void loadDataStores();
  }, [loadDataStores]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const store = await createDataStore(name);
      setName('');
      navigate(`/data-stores/${store.id}`);
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  const selected = dataStores.find((d) => d.id === id);
  return (
    <ListDetail
      title="Data stores"
      item="data store"
      base="/data-stores"
      hasDetail={Boolean(id)}
      creates={false}
      list={
        <>
          <form className="row" onSubmit={(e) => void create(e)}>
            <label htmlFor="ds-name" className="sr-only">
              New store name
            </label>
            <input id="ds-name" required placeholder="New store name" value={name} onChange={(e) => setName(e.target.value)} />
            <button type="submit" className="small primary">
              Create
            </button>
          </form>
          <ItemList label="Data stores" items={dataStores} loaded empty="No data stores yet." href={(d) => `/data-stores/${encodeURIComponent(d.id)}`} selectedId={id ?? null}>
            {(d) => (
              <>
                <span className="name">{d.name}</span>
                <span className="badge">{d.record_count} records</span>
                <span className="id">{d.id}</span>
              </>
            )}
          </ItemList>
        </>
      }
      detail={
        selected ? (
          <DataStoreRecords key={selected.id} store={selected} />
        ) : (
          <Welcome title="Data stores">
            <p>
              Key-value stores shared by every component configured with them (<code>data_store</code> props). Records can have a TTL.
            </p>
          </Welcome>
        )
      }
    />
  );
}
