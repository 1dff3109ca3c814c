import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { useRoute } from '../app/router';

/** An in-app link: a real `<a href>` (open in new tab works) that navigates without a reload. */
export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const navigate = useRoute((s) => s.navigate);
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}

/** The way back to a list whose column folds away beside a selected item in narrow windows (CSS shows it there). */
export function BackToList({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="back-to-list">
      ← {label}
    </Link>
  );
}

/** An item of a list screen's list: marked as the current page when it is the one open. */
export function ItemLink({ to, selected, children }: { to: string; selected: boolean; children: ReactNode }) {
  return (
    <Link to={to} className={selected ? 'source selected' : 'source'} aria-current={selected ? 'page' : undefined}>
      {children}
    </Link>
  );
}
