import { useMemo } from 'react';
import type { VaultFileMeta, VaultScope } from '../../../../common/domain/vault';
import { useStoreShallow, useStore, type VaultSort } from '../../store';
import { useProjectLabel } from './project-label';
import { openFile } from '../../bridge/vault-actions';
import { arrowFocus } from '../../ui/arrow-keys';

const SCOPES: { scope: VaultScope; label: string }[] = [
  { scope: 'instructions', label: 'Instructions' },
  { scope: 'session-notes', label: 'Session notes' },
  { scope: 'project-memory', label: 'Project memory' },
  { scope: 'team-memory', label: 'Team memory' },
];

const sorters: Record<VaultSort, (a: VaultFileMeta, b: VaultFileMeta) => number> = {
  name: (a, b) => a.title.localeCompare(b.title),
  updated: (a, b) => b.mtime.localeCompare(a.mtime),
  size: (a, b) => b.size - a.size,
};


const syncLabels: Record<NonNullable<VaultFileMeta['syncState']>, string> = {
  synced: 'synced',
  pending: 'pending',
  conflict: 'conflict',
  blocked: 'secret',
  'too-large': 'too large',
  'invalid-name': 'name not synced',
  failed: 'sync failed',
};

/** A file's problem, or else its team sync state (team memory only) and its memory type. */
function Badges({ file }: { file: VaultFileMeta }) {
  if (file.error) return <span className="badge error" title={file.error}>error</span>;
  if (file.tooLarge) return <span className="badge warn">too large</span>;
  if (file.binary) return <span className="badge">binary</span>;
  return (
    <span className="badges">
      {file.syncState && (
        <span className={`badge sync ${file.syncState}`} title={`Team sync: ${syncLabels[file.syncState]}`}>
          {file.syncState === 'synced' ? '✓ synced' : syncLabels[file.syncState]}
        </span>
      )}
      {file.type && <span className={`badge type-${file.type}`}>{file.type}</span>}
    </span>
  );
}

/** Files grouped by scope, then by project; arrow keys move between rows (they are buttons in a list). */
export function FileTree() {
  const label = useProjectLabel();
  const { files, sort, selectedPath, loaded } = useStoreShallow((s) => ({
    files: s.files,
    sort: s.sort,
    selectedPath: s.selectedPath,
    loaded: s.filesLoaded,
  }));
  const groups = useMemo(() => {
    return SCOPES.map(({ scope, label }) => {
      const inScope = files.filter((f) => f.scope === scope);
      const byProject = new Map<string, VaultFileMeta[]>();
      for (const f of inScope) {
        const key = f.projectSlug ?? '';
        byProject.set(key, [...(byProject.get(key) ?? []), f]);
      }
      return {
        scope,
        label,
        projects: [...byProject.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([slug, list]) => ({ slug, files: [...list].sort(sorters[sort]) })),
      };
    });
  }, [files, sort]);

  if (!loaded) return <p className="muted small">Reading the vault…</p>;
  return (
    <nav className="file-tree" aria-label="Vault files" onKeyDown={arrowFocus('button.tree-file')}>
      <label className="row small">
        Sort by
        <select className="input" value={sort} onChange={(e) => useStore.getState().setSort(e.target.value as VaultSort)}>
          <option value="name">name</option>
          <option value="updated">updated</option>
          <option value="size">size</option>
        </select>
      </label>
      {groups.map((g) => (
        <section key={g.scope} aria-label={g.label}>
          <h2 className="tree-heading">{g.label}</h2>
          {g.projects.length === 0 && <p className="muted small tree-empty">Nothing yet.</p>}
          {g.projects.map((p) => (
            <div key={p.slug}>
              {/* The user's own CLAUDE.md needs a heading only beside the opened projects' ones. */}
              {g.scope !== 'instructions' || p.slug || g.projects.length > 1 ? (
                <h3 className="tree-project" title={p.slug}>
                  {label(p.slug || null)}
                </h3>
              ) : null}
              <ul className="tree-list">
                {p.files.map((f) => (
                  <li key={f.path}>
                    <button
                      type="button"
                      className="tree-file"
                      aria-current={f.path === selectedPath ? 'true' : undefined}
                      title={f.path}
                      onClick={() => void openFile(f.path)}
                    >
                      <span className="tree-title">{f.title}</span>
                      <Badges file={f} />
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
    </nav>
  );
}
