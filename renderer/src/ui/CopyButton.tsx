import { useState } from 'react';

/** Copies `text` to the clipboard and says so (falls back to selecting a hidden field where the API is missing); `disabled` while the text is not known yet, `title` saying why. */
export function CopyButton({ text, label = 'Copy', className, disabled = false, title }: { text: string; label?: string; className?: string; disabled?: boolean; title?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      const area = document.createElement('textarea');
      area.value = text;
      document.body.appendChild(area);
      area.select();
      const ok = document.execCommand('copy');
      area.remove();
      setState(ok ? 'copied' : 'failed');
    }
    setTimeout(() => setState('idle'), 1500);
  };
  return (
    <button type="button" className={className ?? 'small'} onClick={() => void copy()} aria-live="polite" disabled={disabled} title={title}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}
