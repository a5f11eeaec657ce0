import type { MemoryHeadField } from '../../../../common/memory-file/index';
import { HEAD_FIELDS, type Head } from './memory-sides';

const LABELS: Record<MemoryHeadField, string> = { name: 'Name', description: 'Description', type: 'Type' };
const shown = (field: MemoryHeadField, value: string) =>
  value.trim() === '' ? '(none)' : field === 'type' ? value.charAt(0).toUpperCase() + value.slice(1) : value;

/**
 * Name, description and type of both sides as fields, in the columns of the panes below: one value
 * where they agree, both where they differ, with a choice of which one the result keeps (yours first,
 * as the result starts from yours). With the base shown, what it held before is under each difference.
 */
export function HeadFields({ mine, theirs, base, chosen, onChange }: { mine: Head; theirs: Head; base: Head | null; chosen: Head; onChange: (head: Head) => void }) {
  return (
    <div className="head-fields" role="group" aria-label="Name, description and type">
      {HEAD_FIELDS.map((field) => (
        <div className="head-field" key={field}>
          <span className="head-label">{LABELS[field]}</span>
          {mine[field] === theirs[field] ? (
            <span className="head-same">{shown(field, mine[field])}</span>
          ) : (
            <fieldset className="head-choice">
              <legend className="sr-only">{LABELS[field]}: which one to keep</legend>
              {(['mine', 'theirs'] as const).map((side) => {
                const value = (side === 'mine' ? mine : theirs)[field];
                return (
                  <label className={`head-option ${side}`} key={side}>
                    <input type="radio" name={`head-${field}`} checked={chosen[field] === value} onChange={() => onChange({ ...chosen, [field]: value })} />
                    <span>
                      <span className="head-side">{side === 'mine' ? 'Yours' : 'Theirs'}</span> {shown(field, value)}
                    </span>
                  </label>
                );
              })}
              {base && <span className="head-before muted small">Before: {shown(field, base[field])}</span>}
            </fieldset>
          )}
        </div>
      ))}
    </div>
  );
}
