import { useMemo, useState } from 'react';
import type { Project } from '../../../../common/domain/app';
import type { Frontmatter, MemoryType } from '../../../../common/domain/vault';
import { createMemory } from '../../bridge/vault-actions';
import { useStore, useStoreShallow } from '../../store';
import { FrontmatterForm, validateFrontmatter } from './frontmatter-form';
import { projectLabel } from './project-label';

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/;

/** `Prefers tabs!` → `prefers-tabs.md`: the file name suggested for a memory's name. */
export function fileNameFor(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return stem ? `${stem}.md` : '';
}

interface Target {
  id: string;
  label: string;
  project?: string;
  projectSlug?: string;
}

/**
 * Where a new memory can go: each project once, by its name — the open one first, then the other opened
 * projects, then memory folders of the vault no opened project owns. Projects sharing one memory folder
 * (worktrees of one repository) are one place; two places of one name say where each is.
 */
export function memoryTargets(projects: readonly Project[], activeProject: string | null, memorySlugs: readonly string[]): Target[] {
  const byName = (a: Project, b: Project) => a.name.localeCompare(b.name);
  const ordered = [...projects.filter((p) => p.path === activeProject), ...projects.filter((p) => p.path !== activeProject).sort(byName)];
  const seen = new Set<string>();
  const targets: (Target & { where: string })[] = [];
  for (const p of ordered) {
    if (seen.has(p.memorySlug)) continue;
    seen.add(p.memorySlug);
    targets.push({ id: `project:${p.path}`, label: p.name, project: p.path, where: p.path });
  }
  for (const slug of [...new Set(memorySlugs)].sort()) {
    if (seen.has(slug)) continue;
    seen.add(slug);
    targets.push({ id: `slug:${slug}`, label: projectLabel(slug, projects), projectSlug: slug, where: slug.replace(/^-+/, '') });
  }
  const count = new Map<string, number>();
  for (const t of targets) count.set(t.label, (count.get(t.label) ?? 0) + 1);
  return targets.map(({ where, ...t }) => (count.get(t.label)! > 1 ? { ...t, label: `${t.label} (${where})` } : t));
}

function useTargets(): Target[] {
  const { files, projects, activeProject } = useStoreShallow((s) => ({ files: s.files, projects: s.projects, activeProject: s.activeProject }));
  return useMemo(() => {
    const slugs = files.filter((f) => f.scope === 'project-memory' || f.scope === 'team-memory').map((f) => f.projectSlug!);
    return memoryTargets(projects, activeProject, slugs);
  }, [files, projects, activeProject]);
}

/** A new memory: where, the three frontmatter fields, a file name (suggested from the name) and the text. */
export function NewMemoryForm() {
  const targets = useTargets();
  const [targetId, setTargetId] = useState(targets[0]?.id ?? '');
  const [team, setTeam] = useState(false);
  const [fields, setFields] = useState<Frontmatter>({ name: '', description: '', type: 'user' });
  const [fileName, setFileName] = useState<string | null>(null);
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [edited, setEdited] = useState(false);
  const target = targets.find((t) => t.id === targetId) ?? targets[0];
  const file = fileName ?? fileNameFor(fields.name);
  const fileProblem = file && !FILE_NAME.test(file) ? 'Letters, digits, dots, dashes and underscores, ending in .md.' : file === 'MEMORY.md' ? 'MEMORY.md is the index.' : null;
  const valid = Boolean(target) && Object.keys(validateFrontmatter(fields)).length === 0 && Boolean(file) && !fileProblem;
  const close = () => useStore.getState().setPanel('file');

  if (!target) {
    return (
      <section className="empty-state compact" aria-labelledby="new-memory-heading">
        <h1 id="new-memory-heading">New memory</h1>
        <p className="lead">Open a project folder first: memories belong to a project.</p>
        <button type="button" className="button primary" onClick={() => useStore.getState().setFolderChooserOpen(true)}>
          Open a project folder…
        </button>
      </section>
    );
  }

  return (
    <form
      className="new-memory"
      aria-labelledby="new-memory-heading"
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid || busy) return;
        setBusy(true);
        void createMemory({
          ...(target.project ? { project: target.project } : { projectSlug: target.projectSlug! }),
          team,
          fileName: file,
          name: fields.name.trim(),
          description: fields.description.trim(),
          type: fields.type as MemoryType,
          body,
        }).finally(() => setBusy(false));
      }}
    >
      <header className="file-header">
        <h1 id="new-memory-heading">New memory</h1>
      </header>
      <div className="row">
        <div className="field grow">
          <label htmlFor="new-memory-project">Project</label>
          <select id="new-memory-project" className="input" value={target.id} onChange={(e) => setTargetId(e.target.value)}>
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <label className="row small">
          <input type="checkbox" checked={team} onChange={(e) => setTeam(e.target.checked)} />
          Team memory (shared with the team when sync is on)
        </label>
      </div>
      <FrontmatterForm
        value={fields}
        showProblems={edited}
        onChange={(next) => {
          setEdited(true);
          setFields(next);
        }}
      />
      <div className="field">
        <label htmlFor="new-memory-file">File name</label>
        <input
          id="new-memory-file"
          className="input"
          value={file}
          aria-invalid={Boolean(fileProblem)}
          {...(fileProblem ? { 'aria-describedby': 'new-memory-file-problem' } : {})}
          onChange={(e) => setFileName(e.target.value)}
        />
        {fileProblem && (
          <span id="new-memory-file-problem" className="error-text small">
            {fileProblem}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="new-memory-text">Text</label>
        <textarea
          id="new-memory-text"
          className="input"
          rows={8}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          placeholder="The fact, then **Why:** and **How to apply:** lines."
        />
      </div>
      <div className="row">
        <button type="submit" className="button primary" disabled={!valid || busy}>
          {busy ? 'Creating…' : 'Create memory'}
        </button>
        <button type="button" className="button ghost" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
