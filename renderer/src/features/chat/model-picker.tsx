import { useStore } from '../../store';
import { saveSettings } from '../../bridge/actions';

/** Models offered by name; any other model set in Settings (a custom server's) is listed too. */
const KNOWN_MODELS: readonly [string, string][] = [
  ['claude-opus-4-5', 'Claude Opus 4.5'],
  ['claude-sonnet-4-5', 'Claude Sonnet 4.5'],
  ['claude-haiku-4-5', 'Claude Haiku 4.5'],
];

/** The model the next question goes to, beside the message box; a change applies from the next request. */
export function ModelPicker({ disabled }: { disabled: boolean }) {
  const model = useStore((s) => s.settings?.model ?? null);
  if (!model) return null;
  const options = KNOWN_MODELS.some(([id]) => id === model) ? KNOWN_MODELS : [...KNOWN_MODELS, [model, model] as [string, string]];
  return (
    <select className="input model-picker" aria-label="Model" value={model} disabled={disabled} onChange={(e) => void saveSettings({ model: e.target.value })}>
      {options.map(([id, label]) => (
        <option key={id} value={id}>
          {label}
        </option>
      ))}
    </select>
  );
}
