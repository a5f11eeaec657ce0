import { useId } from 'react';
import type { Frontmatter } from '../../../../common/domain/vault';
import { readMemoryHead, withMemoryHead, type MemoryShape } from '../../../../common/memory-file';
import { isMemoryType, memoryTypeChoices, memoryTypeHint } from './memory-type-words';

const FENCE = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/** The three fields as the form shows them, from a file's frontmatter in either shape (missing ones empty). */
export const readFrontmatter = (text: string): Frontmatter | null => readMemoryHead(text);

/**
 * Rewrites the three known fields in the text in the shape chosen in Settings (the metadata shape keeps
 * `type` under `metadata` and dates the edit), keeping every other key and comment of the frontmatter.
 */
export const withFrontmatter = (text: string, next: Frontmatter, shape: MemoryShape): string =>
  withMemoryHead(text, next, shape, new Date().toISOString());

/** The text without its frontmatter block, for the preview. */
export const stripFrontmatter = (text: string): string => text.replace(FENCE, '');

export function validateFrontmatter(f: Frontmatter): Partial<Record<keyof Frontmatter, string>> {
  const problems: Partial<Record<keyof Frontmatter, string>> = {};
  if (!f.name.trim()) problems.name = 'A memory needs a name.';
  if (!f.description.trim()) problems.description = 'One specific line: what this memory is for.';
  else if (f.description.includes('\n')) problems.description = 'Keep the description to one line.';
  else if (f.description.length > 200) problems.description = 'Keep the description under 200 characters.';
  if (!isMemoryType(f.type)) problems.type = 'Choose one of the four types.';
  return problems;
}

/**
 * One labelled control with its problem under it, else its hint (either is read by screen readers as the
 * control's description).
 */
function Field({ id, label, problem, hint, children }: { id: string; label: string; problem: string | undefined; hint?: string | null; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {problem ? (
        <span id={`${id}-problem`} className="error-text small">
          {problem}
        </span>
      ) : (
        hint && (
          <span id={`${id}-hint`} className="muted small">
            {hint}
          </span>
        )
      )}
    </div>
  );
}

/**
 * The name / description / type of a memory, edited as a form over the file's frontmatter. Problems
 * show once `showProblems` is on (a new, untouched form is not covered in red).
 */
export function FrontmatterForm({ value, onChange, showProblems = true }: { value: Frontmatter; onChange: (next: Frontmatter) => void; showProblems?: boolean }) {
  const id = useId();
  const problems = showProblems ? validateFrontmatter(value) : {};
  const typeHint = memoryTypeHint(value.type);
  const described = (field: keyof Frontmatter) =>
    problems[field]
      ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-problem` }
      : { 'aria-invalid': false, ...(field === 'type' && typeHint ? { 'aria-describedby': `${id}-type-hint` } : {}) };
  return (
    <fieldset className="frontmatter-form">
      <legend className="sr-only">Memory details</legend>
      <Field id={`${id}-name`} label="Name" problem={problems.name}>
        <input id={`${id}-name`} className="input" value={value.name} {...described('name')} onChange={(e) => onChange({ ...value, name: e.target.value })} />
      </Field>
      <Field id={`${id}-description`} label="Description" problem={problems.description}>
        <input
          id={`${id}-description`}
          className="input"
          value={value.description}
          {...described('description')}
          onChange={(e) => onChange({ ...value, description: e.target.value })}
        />
      </Field>
      <Field id={`${id}-type`} label="Type" problem={problems.type} hint={typeHint}>
        <select
          id={`${id}-type`}
          className="input"
          value={isMemoryType(value.type) ? value.type : ''}
          {...described('type')}
          onChange={(e) => onChange({ ...value, type: e.target.value })}
        >
          {/* Only a file whose type is missing or not one of the four shows a fifth line: what it holds now. */}
          {!isMemoryType(value.type) && (
            <option value="" disabled>
              {value.type ? `${value.type} (not a memory type)` : 'Choose…'}
            </option>
          )}
          {memoryTypeChoices.map((c) => (
            <option key={c.type} value={c.type}>
              {c.label}
            </option>
          ))}
        </select>
      </Field>
    </fieldset>
  );
}
