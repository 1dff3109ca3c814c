// The app-wide keys: Ctrl/Cmd+K the palette, `/` the screen's search box, `?` the shortcut list
// (j/k are the lists' own: ui/use-list-keys.ts).
import { useEffect, useState } from 'react';
import { isTypingTarget } from '../../ui/typing-target';
import { CommandPalette } from './CommandPalette';
import { ShortcutsDialog } from './ShortcutsDialog';

/** Listens for the app-wide shortcuts and shows the palette or the shortcut list they open. */
export function Shortcuts() {
  const [open, setOpen] = useState<'palette' | 'shortcuts' | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        // Ctrl+K works even in a field or monaco: it is no text.
        e.preventDefault();
        setOpen((o) => (o === 'palette' ? null : 'palette'));
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target) || document.querySelector('dialog[open]')) return;
      if (e.key === '?') {
        e.preventDefault();
        setOpen('shortcuts');
      } else if (e.key === '/') {
        const search = document.querySelector<HTMLInputElement>('main input[type="search"]');
        if (!search) return;
        e.preventDefault();
        search.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (open === 'palette') return <CommandPalette onClose={() => setOpen(null)} />;
  if (open === 'shortcuts') return <ShortcutsDialog onClose={() => setOpen(null)} />;
  return null;
}
