import { memo, useMemo, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) {
    return textOf((node as { props: { children?: ReactNode } }).props.children);
  }
  return '';
}

function CodeBlock({ children }: { children?: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(textOf(children).replace(/\n$/, ''));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="code-block">
      <button type="button" className="button ghost copy" onClick={() => void copy()} aria-label="Copy code">
        {copied ? 'Copied' : 'Copy'}
      </button>
      {/* Focusable, so a line wider than the pane scrolls from the keyboard too. */}
      <pre tabIndex={0}>{children}</pre>
    </div>
  );
}

// Links open outside the app (main denies navigation and hands http(s) to the system browser).
function OutsideLink({ href, children }: { href: string | undefined; children?: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  );
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, children }) => <OutsideLink href={href}>{children}</OutsideLink>,
  table: ({ children }) => (
    <div className="table-wrap">
      <table>{children}</table>
    </div>
  ),
};

/**
 * GFM markdown (tables, task lists, strikethrough) with highlighted, copyable code blocks. No raw HTML.
 * `link` may draw a link itself (the vault's `[[memory]]` links); when it returns undefined the link
 * opens outside the app as usual.
 */
export const Markdown = memo(function Markdown({ text, link }: { text: string; link?: (href: string | undefined, children: ReactNode) => ReactNode | undefined }) {
  const drawn = useMemo<Components>(
    () => (link ? { ...components, a: ({ href, children }) => link(href, children) ?? <OutsideLink href={href}>{children}</OutsideLink> } : components),
    [link],
  );
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]} components={drawn}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
