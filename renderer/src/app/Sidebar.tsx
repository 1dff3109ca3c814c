import { Link } from '../ui/Link';
import { useRoute } from './router';

const ITEMS = [
  { to: '/sources', label: 'Sources' },
  { to: '/actions', label: 'Actions' },
  { to: '/workflows', label: 'Workflows' },
  { to: '/stream', label: 'Stream' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/data-stores', label: 'Data stores' },
  { to: '/sync', label: 'Sync' },
  { to: '/settings', label: 'Settings' },
];

/** The app's main navigation. */
export function Sidebar() {
  const path = useRoute((s) => s.path);
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">Spout</div>
      <ul>
        {ITEMS.map((item) => {
          const current = path === item.to || path.startsWith(`${item.to}/`);
          return (
            <li key={item.to}>
              <Link to={item.to} aria-current={current ? 'page' : undefined} className={current ? 'current' : undefined}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
