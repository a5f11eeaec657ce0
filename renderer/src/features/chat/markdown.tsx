import { memo, useMemo, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { remarkSoftBreaks } from './soft-breaks';

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

const answerPlugins = [remarkGfm];
const notesPlugins = [remarkGfm, remarkSoftBreaks];

/**
 * GFM markdown (tables, task lists, strikethrough) with highlighted, copyable code blocks. No raw HTML.
 * `link` may draw a link itself (the vault's `[[memory]]` links); when it returns undefined the link
 * opens outside the app as usual. `breaks`: a single line ending shows as a line break, for what people
 * write as notes (memories, session notes, instructions); the model's answers keep CommonMark's joining.
 */
export const Markdown = memo(function Markdown({
  text,
  link,
  breaks = false,
}: {
  text: string;
  link?: (href: string | undefined, children: ReactNode) => ReactNode | undefined;
  breaks?: boolean;
}) {
  const drawn = useMemo<Components>(
    () => (link ? { ...components, a: ({ href, children }) => link(href, children) ?? <OutsideLink href={href}>{children}</OutsideLink> } : components),
    [link],
  );
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={breaks ? notesPlugins : answerPlugins} rehypePlugins={[[rehypeHighlight, { detect: false }]]} components={drawn}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
