import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { MemoryLinks, VaultFile } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { Markdown } from '../chat/markdown';
import { stripFrontmatter } from './frontmatter-form';
import { ConversationLink, useConversationTitle } from './conversation-link';
import { wikiLinkName, withWikiLinks } from './wiki-links';

/**
 * The memory's `[[links]]` and backlinks, asked again when the file is saved (its hash changes) or the
 * vault's file list does (a link target written or deleted). Null until main answers, or if it cannot.
 */
function useMemoryLinks(file: VaultFile): MemoryLinks | null {
  const files = useStore((s) => s.files);
  const [links, setLinks] = useState<MemoryLinks | null>(null);
  const path = file.meta.path;
  useEffect(() => {
    let current = true;
    void api.invoke['vault:memory-links']({ path }).then((r) => {
      if (current) setLinks(r.ok ? r.value : null);
    });
    return () => {
      current = false;
    };
  }, [path, file.hash, files]);
  return links;
}

/** A memory's preview: its body with `[[name]]` links that open the memory, or say it is not written yet. */
function MemoryPreview({ file, text, links }: { file: VaultFile; text: string; links: MemoryLinks | null }) {
  const link = useCallback(
    (href: string | undefined, children: ReactNode) => {
      const name = wikiLinkName(href);
      if (name === null) return undefined;
      const target = links?.links.find((l) => l.name === name);
      if (!target) return <span className="wiki-link">{children}</span>;
      if (!target.path) {
        return (
          <span className="wiki-link missing" title="Not written yet">
            {children}
            <span className="sr-only"> (not written yet)</span>
          </span>
        );
      }
      const to = target.path;
      return (
        <a
          href={`#${encodeURIComponent(to)}`}
          className="wiki-link"
          title={`Open ${target.title ?? name}`}
          onClick={(e) => {
            e.preventDefault();
            void openFile(to);
          }}
        >
          {children}
        </a>
      );
    },
    [links],
  );
  return <Markdown key={file.meta.path} text={withWikiLinks(stripFrontmatter(text))} link={link} breaks />;
}

/** Memories that link here, each opening on a click. */
function Backlinks({ links }: { links: MemoryLinks | null }) {
  if (!links) return null;
  return (
    <section className="memory-backlinks" aria-labelledby="backlinks-heading">
      <h2 id="backlinks-heading">Backlinks</h2>
      {links.backlinks.length === 0 ? (
        <p className="muted small">No other memory links here.</p>
      ) : (
        <ul className="plain-list">
          {links.backlinks.map((b) => (
            <li key={b.path}>
              <button type="button" className="link" title={b.path} onClick={() => void openFile(b.path)}>
                {b.title}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Written in conversation “…”", opening it in Chat; when the vault no longer holds it, says so. */
export function OriginConversation({ file }: { file: VaultFile }) {
  const titleOf = useConversationTitle();
  const sessionId = file.frontmatter?.originSessionId;
  const slug = file.meta.projectSlug;
  if (!sessionId) return null;
  const title = titleOf(slug, sessionId);
  if (!slug || title === null) return <p className="muted small">Written in a conversation that is no longer here.</p>;
  return (
    <p className="small">
      Written in conversation <ConversationLink projectSlug={slug} sessionId={sessionId} title={title} />
    </p>
  );
}

/** A memory's preview with its `[[links]]` live and the memories that link here below it. */
export function LinkedMemoryPreview({ file, text }: { file: VaultFile; text: string }) {
  const links = useMemoryLinks(file);
  return (
    <>
      <MemoryPreview file={file} text={text} links={links} />
      <Backlinks links={links} />
    </>
  );
}
