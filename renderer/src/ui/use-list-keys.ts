// j/k move the selection in a list: the link lists of list screens (ItemList) and the row lists of
// a source's Activity and Events (RowList). Several lists can be on screen (the sources list beside
// a source's activity): the one mounted last, the innermost, takes the keys.
import { useEffect, useRef } from 'react';
import { isTypingTarget } from './typing-target';

interface ListKeys {
  count: number;
  /** The selected item's index, -1 for none. */
  selected: number;
  select(index: number): void;
}

const lists: Array<{ current: ListKeys }> = [];

/** Makes `j`/`k` select the next/previous of `count` items (`selected`: the selected one's index, -1 for none) while this list is the innermost on screen. */
export function useListKeys(count: number, selected: number, select: (index: number) => void): void {
  const state = useRef<ListKeys>({ count, selected, select });
  state.current = { count, selected, select };
  useEffect(() => {
    lists.push(state);
    return () => {
      lists.splice(lists.indexOf(state), 1);
    };
  }, []);
}

/** The index `j` (+1) or `k` (-1) moves to from the selection, or null at an end. */
export function stepIndex({ count, selected }: Pick<ListKeys, 'count' | 'selected'>, step: 1 | -1): number | null {
  if (count === 0) return null;
  const next = selected < 0 ? (step === 1 ? 0 : count - 1) : selected + step;
  return next >= 0 && next < count ? next : null;
}

window.addEventListener('keydown', (e) => {
  if ((e.key !== 'j' && e.key !== 'k') || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (isTypingTarget(e.target) || document.querySelector('dialog[open]')) return;
  const list = lists[lists.length - 1];
  if (!list) return;
  const to = stepIndex(list.current, e.key === 'j' ? 1 : -1);
  if (to === null) return;
  e.preventDefault();
  list.current.select(to);
});
