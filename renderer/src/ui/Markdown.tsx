import { Fragment, type ReactNode } from 'react';

/**
 * Renders the Markdown of prop labels, descriptions and alerts as React elements (never raw HTML):
 * paragraphs, `-`/`*` lists, `code`, **bold**, *emphasis* and [links](https://…) (http(s) only).
 */
export function Markdown({ text, inline = false }: { text: string; inline?: boolean }) {
  if (inline) return <>{renderInline(text)}</>;
  const blocks = text.trim().split(/\n\s*\n/);
  return (
    <div className="markdown">
      {blocks.map((block, i) => {
        const lines = block.split('\n');
        if (lines.every((l) => /^\s*[-*] /.test(l))) {
          return (
            <ul key={i}>
              {lines.map((l, j) => (
                <li key={j}>{renderInline(l.replace(/^\s*[-*] /, ''))}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{renderInline(block.replace(/\n/g, ' '))}</p>;
      })}
    </div>
  );
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/g;

function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const m of text.matchAll(INLINE)) {
    const index = m.index ?? 0;
    if (index > last) out.push(<Fragment key={key++}>{text.slice(last, index)}</Fragment>);
    const token = m[0];
    if (m[1]) out.push(<code key={key++}>{token.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={key++}>{renderInline(token.slice(2, -2))}</strong>);
    else if (m[3]) out.push(<em key={key++}>{renderInline(token.slice(1, -1))}</em>);
    else {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token);
      const href = link?.[2] ?? '';
      if (link && /^https?:\/\//i.test(href)) {
        out.push(
          <a key={key++} href={href} target="_blank" rel="noopener noreferrer">
            {link[1]}
          </a>,
        );
      } else out.push(<Fragment key={key++}>{link?.[1] ?? token}</Fragment>);
    }
    last = index + token.length;
  }
  if (last < text.length) out.push(<Fragment key={key++}>{text.slice(last)}</Fragment>);
  return out;
}
