import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { MemoryLinks, VaultFile } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { openConversationFile } from '../../bridge/open-conversation';
import { openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { Markdown } from '../chat/markdown';
import { stripFrontmatter } from './frontmatter-form';
import { useSessionTitles } from './file-name';
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
  return <Markdown key={file.meta.path} text={withWikiLinks(stripFrontmatter(text))} link={link} />;
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

/**
 * "Written in conversation “…”", opening it in Chat. The conversation's transcript sits next to the
 * project's memory folder (`projects/<slug>/<session id>.jsonl`); its title comes from the vault's file
 * list, else from the loaded conversation lists. When neither knows it, the conversation is gone.
 */
export function OriginConversation({ file }: { file: VaultFile }) {
  const files = useStore((s) => s.files);
  const titles = useSessionTitles();
  const sessionId = file.frontmatter?.originSessionId;
  const slug = file.meta.projectSlug;
  if (!sessionId) return null;
  const transcript = slug ? `projects/${slug}/${sessionId}.jsonl` : null;
  const title = files.find((f) => f.path === transcript)?.title ?? titles.get(sessionId) ?? null;
  if (!transcript || title === null) return <p className="muted small">Written in a conversation that is no longer here.</p>;
  const open = async () => {
    if (!(await openConversationFile(transcript))) {
      useStore.getState().showError({ code: 'not_found', message: `“${title}” belongs to a folder that is not open. Open its folder to read it.` });
    }
  };
  return (
    <p className="small">
      Written in conversation{' '}
      <button type="button" className="link" onClick={() => void open()}>
        “{title}”
      </button>
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
