import { useEffect, useState } from 'react';
import { saveSettings } from '../../bridge/actions';
import type { Settings } from '../../../../common/domain/settings';

type Choices = Pick<Settings, 'memoryWrites' | 'memoryShape' | 'contextEditing' | 'serverCompaction'>;

/**
 * How the agent writes memory and how a long conversation is kept within the model's context. Each
 * choice is saved at once (main's settings event confirms it; a failed save puts the old value back).
 */
export function ContextSection({ settings }: { settings: Settings }) {
  const [choices, setChoices] = useState<Choices>(pick(settings));
  useEffect(() => setChoices(pick(settings)), [settings]);
  const change = (patch: Partial<Choices>) => {
    setChoices((c) => ({ ...c, ...patch }));
    void saveSettings(patch).then((ok) => ok || setChoices(pick(settings)));
  };
  return (
    <fieldset className="card" aria-describedby="context-settings-hint">
      <legend>Memory and long conversations</legend>
      <p id="context-settings-hint" className="muted small">
        These apply from your next message.
      </p>
      <div role="radiogroup" aria-label="How the agent writes memory">
        <Choice
          type="radio"
          name="memory-writes"
          checked={choices.memoryWrites === 'claude-code'}
          onChange={() => change({ memoryWrites: 'claude-code' })}
          label="Write memory files the way Claude Code does"
          hint="Recommended: Claude Code reads the same files."
        />
        <Choice
          type="radio"
          name="memory-writes"
          checked={choices.memoryWrites === 'memory-tool'}
          onChange={() => change({ memoryWrites: 'memory-tool' })}
          label="Use the API’s memory tool"
          hint="Same folder, same memory cards, Undo and history."
        />
      </div>
      <div role="radiogroup" className="choice-group" aria-labelledby="memory-shape-label">
        <p id="memory-shape-label" className="small">
          <strong>Memory file format</strong>
        </p>
        <Choice
          type="radio"
          name="memory-shape"
          checked={choices.memoryShape === '2.1.88'}
          onChange={() => change({ memoryShape: '2.1.88' })}
          label="Write memory in the Claude Code 2.1.88 format"
          hint="Recommended: both the 2.1.88 and the newest Claude Code read it."
        />
        <Choice
          type="radio"
          name="memory-shape"
          checked={choices.memoryShape === 'metadata'}
          onChange={() => change({ memoryShape: 'metadata' })}
          label="Write memory in the newest Claude Code format"
          hint="As Claude Code 2.1.332 writes them: kebab-case names, a metadata: block with the type, the conversation and the time of the last change, [[links]] between memories. Claude Code 2.1.88 reads these memories without their type."
        />
      </div>
      <Choice
        type="checkbox"
        checked={choices.contextEditing}
        onChange={(on) => change({ contextEditing: on })}
        label="Clear old tool results in long conversations"
        hint="The API leaves out file contents the agent read long ago; it can read them again."
      />
      <Choice
        type="checkbox"
        checked={choices.serverCompaction}
        onChange={(on) => change({ serverCompaction: on })}
        label="Let the API summarize long conversations"
        hint="Instead of Strata’s own summary from the session notes, which needs no extra model call and works offline. Not available to organizations with zero data retention."
      />
    </fieldset>
  );
}

function Choice(props: { type: 'radio' | 'checkbox'; name?: string; checked: boolean; onChange: (checked: boolean) => void; label: string; hint: string }) {
  return (
    <label className="switch-row">
      <input type={props.type} name={props.name} checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <span>
        <strong>{props.label}</strong>
        <span className="muted small"> — {props.hint}</span>
      </span>
    </label>
  );
}

const pick = (s: Settings): Choices => ({ memoryWrites: s.memoryWrites, memoryShape: s.memoryShape, contextEditing: s.contextEditing, serverCompaction: s.serverCompaction });
