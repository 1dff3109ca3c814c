// j/k move the selection in a list of links. Several lists can be on screen (the sources list
// beside a source's activity): the one mounted last, the innermost, takes the keys.
import { useEffect, useRef } from 'react';
import { useRoute } from '../app/router';
import { isTypingTarget } from './typing-target';

interface ListKeys {
  hrefs: readonly string[];
  selected: number;
}

const lists: Array<{ current: ListKeys }> = [];

/** Makes `j`/`k` open the next/previous of `hrefs` (`selected`: the open one's index, -1 for none) while this list is the innermost on screen. */
export function useListKeys(hrefs: readonly string[], selected: number): void {
  const state = useRef<ListKeys>({ hrefs, selected });
  state.current = { hrefs, selected };
  useEffect(() => {
    lists.push(state);
    return () => {
      lists.splice(lists.indexOf(state), 1);
    };
  }, []);
}

/** The href `j` (+1) or `k` (-1) moves to from the selection, or null at an end. */
export function stepHref({ hrefs, selected }: ListKeys, step: 1 | -1): string | null {
  if (hrefs.length === 0) return null;
  const next = selected < 0 ? (step === 1 ? 0 : hrefs.length - 1) : selected + step;
  return hrefs[next] ?? null;
}

window.addEventListener('keydown', (e) => {
  if ((e.key !== 'j' && e.key !== 'k') || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (isTypingTarget(e.target) || document.querySelector('dialog[open]')) return;
  const list = lists[lists.length - 1];
  if (!list) return;
  const to = stepHref(list.current, e.key === 'j' ? 1 : -1);
  if (!to) return;
  e.preventDefault();
  useRoute.getState().navigate(to, { keepFocus: true });
});
