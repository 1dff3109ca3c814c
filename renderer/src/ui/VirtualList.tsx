import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A windowed list of fixed-height rows: only the rows in view (plus a margin) are in the DOM, so
 * 10 000 items scroll as smoothly as 10. Arrow keys, Home and End move the selection.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  renderRow,
  getKey,
  selectedIndex,
  onSelect,
  label,
  className,
  onScrolled,
  toTop,
}: {
  items: T[];
  rowHeight: number;
  renderRow(item: T, index: number): ReactNode;
  getKey(item: T): string;
  selectedIndex?: number;
  onSelect?(index: number): void;
  label: string;
  className?: string;
  /** Told after each scroll whether the top row is in view and whether the end is near (a page away): a live list holds new rows while scrolled, and pages older ones in. */
  onScrolled?(atTop: boolean, nearEnd: boolean): void;
  /** A change of this number scrolls back to the top. */
  toTop?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (toTop !== undefined && ref.current) ref.current.scrollTop = 0;
  }, [toTop]);
  const overscan = 8;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  const keyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!onSelect || items.length === 0) return;
    const current = selectedIndex ?? -1;
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const next =
      e.key === 'ArrowDown'
        ? Math.min(items.length - 1, current + 1)
        : e.key === 'ArrowUp'
          ? Math.max(0, current - 1)
          : e.key === 'PageDown'
            ? Math.min(items.length - 1, current + page)
            : e.key === 'PageUp'
              ? Math.max(0, current - page)
              : e.key === 'Home'
                ? 0
                : e.key === 'End'
                  ? items.length - 1
                  : null;
    if (next === null) return;
    e.preventDefault();
    onSelect(next);
  };

  // A selection moved by keys (here or j/k on the page) scrolls into view; rows arriving above it do not move the view.
  const selectedKey = selectedIndex !== undefined && items[selectedIndex] ? getKey(items[selectedIndex]) : null;
  useEffect(() => {
    const el = ref.current;
    if (!el || selectedIndex === undefined || selectedIndex < 0) return;
    const top = selectedIndex * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  }, [selectedKey]);

  return (
    <div
      ref={ref}
      className={`virtual ${className ?? ''}`}
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={selectedIndex !== undefined && selectedIndex >= 0 && items[selectedIndex] ? `row-${getKey(items[selectedIndex])}` : undefined}
      onScroll={(e) => {
        const el = e.currentTarget;
        setScrollTop(el.scrollTop);
        onScrolled?.(el.scrollTop < rowHeight / 2, el.scrollTop + 2 * el.clientHeight >= el.scrollHeight);
      }}
      onKeyDown={keyDown}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {items.slice(first, last).map((item, i) => {
          const index = first + i;
          return (
            <div
              key={getKey(item)}
              id={`row-${getKey(item)}`}
              role="option"
              aria-selected={index === selectedIndex}
              className={index === selectedIndex ? 'vrow selected' : 'vrow'}
              style={{ position: 'absolute', top: index * rowHeight, height: rowHeight, left: 0, right: 0 }}
              onClick={() => onSelect?.(index)}
            >
              {renderRow(item, index)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
