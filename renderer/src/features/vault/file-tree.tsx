import { useMemo, useRef } from 'react';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { useStoreShallow, useStore, type VaultSort } from '../../store';
import { useProjectLabel } from './project-label';
import { openFile } from '../../bridge/vault-actions';
import { buildTreeRows, humanTitle, TREE_SCOPES, type TreeRow } from './tree-rows';
import { useSessionTitles } from './file-name';
import { focusRow, focusedRowIndex, observeRect } from '../../ui/virtual-rows';
import { LoadingLine } from '../shell/loading-line';

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

/** Fixed row heights (the CSS keeps them; ui/virtual-rows.ts). */
const ROW_HEIGHT: Record<TreeRow['kind'], number> = { scope: 36, project: 28, file: 30, empty: 26 };

function Row({ row, selectedPath }: { row: TreeRow; selectedPath: string | null }) {
  const toggle = () => useStore.getState().toggleTreeGroup(row.key);
  switch (row.kind) {
    case 'scope':
    case 'project': {
      // A scope is a level-2 heading, a project under it a level-3 one; both fold from their button.
      const Heading = row.kind === 'scope' ? 'h2' : 'h3';
      return (
        <Heading className={row.kind === 'scope' ? 'tree-heading' : 'tree-project'}>
          <button type="button" className="tree-toggle" aria-expanded={!row.collapsed} onClick={toggle}>
            <span aria-hidden="true" className="chevron">{row.collapsed ? '▸' : '▾'}</span> <span className="tree-label">{row.label}</span>
            <span className="tree-count"> {row.count}</span>
          </button>
        </Heading>
      );
    }
    case 'empty':
      return <p className="muted small tree-empty">Nothing yet.</p>;
    case 'file':
      return (
        <button
          type="button"
          className="tree-file"
          aria-current={row.file.path === selectedPath ? 'true' : undefined}
          title={row.file.path}
          onClick={() => void openFile(row.file.path)}
        >
          <span className="tree-title">{row.title}</span>
          <Badges file={row.file} />
        </button>
      );
  }
}

/**
 * ArrowDown / ArrowUp move between the tree's buttons (files and group headings) by row index, so
 * the keys reach rows not drawn yet: the list scrolls to the row, then focuses it.
 */
function moveFocus(event: React.KeyboardEvent<HTMLElement>, rows: TreeRow[], virtualizer: Virtualizer<HTMLDivElement, Element>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const at = focusedRowIndex(event);
  if (at === null) return;
  const step = event.key === 'ArrowDown' ? 1 : -1;
  let next = at + step;
  while (next >= 0 && next < rows.length && rows[next]!.kind === 'empty') next += step;
  if (next < 0 || next >= rows.length) return;
  event.preventDefault();
  const doc = event.currentTarget.ownerDocument;
  focusRow(virtualizer, next, () => doc.querySelector<HTMLElement>(`.file-tree [data-index="${next}"] button`));
}

/**
 * The vault's files grouped by scope, then by project, in a virtual list: only the rows on screen are
 * drawn, so 10,000 notes open as fast as ten. Groups collapse (remembered), names sort naturally.
 */
export function FileTree() {
  const label = useProjectLabel();
  const { files, sort, selectedPath, loaded, collapsedKeys } = useStoreShallow((s) => ({
    files: s.files,
    sort: s.sort,
    selectedPath: s.selectedPath,
    loaded: s.filesLoaded,
    collapsedKeys: s.treeCollapsed,
  }));
  const sessionTitles = useSessionTitles();
  const rows = useMemo(
    () =>
      buildTreeRows({
        files,
        sort,
        collapsed: new Set(collapsedKeys),
        projectLabel: label,
        fileTitle: (file) => humanTitle(file, sessionTitles),
      }),
    [files, sort, collapsedKeys, label, sessionTitles],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => ROW_HEIGHT[rows[i]!.kind],
    getItemKey: (i) => rows[i]!.key,
    observeElementRect: observeRect,
    overscan: 12,
  });

  if (!loaded) return <LoadingLine>Reading the vault…</LoadingLine>;
  const items = virtualizer.getVirtualItems();
  // Rows on screen are grouped by scope in a (static) section, so each scope stays a named region.
  const byScope = TREE_SCOPES.map(({ scope, label: scopeLabel }) => ({
    scope,
    scopeLabel,
    items: items.filter((item) => rows[item.index]!.scope === scope),
  })).filter((g) => g.items.length > 0);
  return (
    <nav className="file-tree" aria-label="Vault files" onKeyDown={(e) => moveFocus(e, rows, virtualizer)}>
      <label className="row small">
        Sort by
        <select className="input" value={sort} onChange={(e) => useStore.getState().setSort(e.target.value as VaultSort)}>
          <option value="name">name</option>
          <option value="updated">updated</option>
          <option value="size">size</option>
        </select>
      </label>
      <div className="tree-scroll" ref={scroller}>
        <div className="tree-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {byScope.map((group) => (
            <section key={group.scope} aria-label={group.scopeLabel}>
              {group.items.map((item) => (
                <div
                  key={item.key}
                  className="tree-row"
                  data-index={item.index}
                  style={{ height: item.size, transform: `translateY(${item.start}px)` }}
                >
                  <Row row={rows[item.index]!} selectedPath={selectedPath} />
                </div>
              ))}
            </section>
          ))}
        </div>
      </div>
    </nav>
  );
}
