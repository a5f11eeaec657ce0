import { useEffect, useState, type FormEvent } from 'react';
import { useStoreShallow } from '../../store';
import { clearApiKey, saveSettings, setApiKey, setVaultRoot } from '../../bridge/actions';
import { FolderChooser } from '../projects/folder-chooser';
import type { Settings } from '../../../../common/domain/settings';
import { ContextSection } from './context-section';
import { ProjectSection } from './project-section';
import { AllowancesSection } from '../secrets/allowances-section';
import { keyInUse, keySaved, keyWillBeKept } from './key-words';

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function ApiKeySection() {
  const { credentials } = useStoreShallow((s) => ({ credentials: s.credentials }));
  const [key, setKey] = useState('');
  const [saved, setSaved] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await setApiKey(key)) {
      setKey('');
      setSaved(true);
    }
  };
  // The same words as the Welcome screen (key-words.ts).
  const where = keyInUse(credentials) ?? `No key yet. Get one from the Anthropic Console. ${keyWillBeKept(credentials?.driver)}`;
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="key-heading">
      <h2 id="key-heading">Anthropic API key</h2>
      <p className="muted small">{where}</p>
      <div className="row">
        <label className="sr-only" htmlFor="api-key">
          API key
        </label>
        <input
          id="api-key"
          className="input grow"
          type="password"
          autoComplete="off"
          placeholder="sk-ant-…"
          value={key}
          onChange={(e) => {
            setKey(e.target.value);
            setSaved(false);
          }}
        />
        <button type="submit" className="button primary" disabled={!key.trim()}>
          Save key
        </button>
        {credentials?.apiKey === 'keychain' && (
          <button type="button" className="button ghost" onClick={() => void clearApiKey()}>
            Remove
          </button>
        )}
      </div>
      {saved && (
        <p className="ok-text small" role="status">
          {keySaved(credentials?.driver)}
        </p>
      )}
    </form>
  );
}

function ModelSection({ settings }: { settings: Settings }) {
  const [model, setModel] = useState(settings.model);
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl ?? '');
  const [teamServerUrl, setTeamServerUrl] = useState(settings.teamServerUrl ?? '');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setModel(settings.model);
    setBaseUrl(settings.baseUrl ?? '');
    setTeamServerUrl(settings.teamServerUrl ?? '');
  }, [settings]);
  const baseUrlBad = baseUrl.trim() !== '' && !isUrl(baseUrl.trim());
  const teamUrlBad = teamServerUrl.trim() !== '' && !isUrl(teamServerUrl.trim());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (baseUrlBad || teamUrlBad || !model.trim()) return;
    setSaved(
      await saveSettings({
        model: model.trim(),
        baseUrl: baseUrl.trim() || null,
        teamServerUrl: teamServerUrl.trim() || null,
      }),
    );
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="model-heading">
      <h2 id="model-heading">Model and servers</h2>
      <label className="field">
        <span>Model</span>
        <input className="input" value={model} onChange={(e) => setModel(e.target.value)} required />
      </label>
      <label className="field">
        <span>API base URL (optional, for a proxy or a local compatible server)</span>
        <input
          className="input"
          value={baseUrl}
          placeholder="https://api.anthropic.com"
          aria-invalid={baseUrlBad}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
        {baseUrlBad && <span className="error-text small">Enter an http(s) URL, or leave it empty.</span>}
      </label>
      <label className="field">
        <span>Team memory server URL (optional)</span>
        <input
          className="input"
          value={teamServerUrl}
          placeholder="https://memory.example.com"
          aria-invalid={teamUrlBad}
          onChange={(e) => setTeamServerUrl(e.target.value)}
        />
        {teamUrlBad && <span className="error-text small">Enter an http(s) URL, or leave it empty.</span>}
      </label>
      <div className="row">
        <button type="submit" className="button primary" disabled={baseUrlBad || teamUrlBad || !model.trim()}>
          Save
        </button>
        {saved && (
          <span className="ok-text small" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}

function AppearanceSection({ settings }: { settings: Settings }) {
  // Shown at once; main's settings event confirms it (a failed save reverts it with a banner).
  const [theme, setTheme] = useState(settings.theme);
  useEffect(() => setTheme(settings.theme), [settings.theme]);
  return (
    <fieldset className="card">
      <legend>Appearance</legend>
      {(['system', 'light', 'dark'] as const).map((option) => (
        <label key={option} className="radio">
          <input
            type="radio"
            name="theme"
            value={option}
            checked={theme === option}
            onChange={() => {
              setTheme(option);
              void saveSettings({ theme: option }).then((ok) => ok || setTheme(settings.theme));
            }}
          />
          {option === 'system' ? 'Follow the system' : option === 'light' ? 'Light' : 'Dark'}
        </label>
      ))}
    </fieldset>
  );
}

function VaultSection() {
  const { info } = useStoreShallow((s) => ({ info: s.info }));
  const [choosing, setChoosing] = useState(false);
  return (
    <section className="card" aria-labelledby="vault-settings-heading">
      <h2 id="vault-settings-heading">Vault folder</h2>
      <p className="muted small">
        Where memories, session notes and transcripts are kept. Point it at <code>~/.claude</code> to share memory
        with Claude Code.
      </p>
      <p>
        <code>{info?.vaultRoot ?? '…'}</code>
      </p>
      <div className="row">
        <button type="button" className="button secondary" onClick={() => setChoosing(true)}>
          Choose another folder…
        </button>
        <button type="button" className="button ghost" onClick={() => void setVaultRoot(null)}>
          Use the default
        </button>
      </div>
      {choosing && <FolderChooser title="Choose the vault folder" onPick={setVaultRoot} onClose={() => setChoosing(false)} />}
    </section>
  );
}

export function SettingsPage() {
  const { settings, project } = useStoreShallow((s) => ({ settings: s.settings, project: s.activeProject }));
  return (
    <div className="settings-page">
      <h1>Settings</h1>
      <ApiKeySection />
      {settings ? (
        <>
          <ModelSection settings={settings} />
          {project && <ProjectSection settings={settings} project={project} />}
          <ContextSection settings={settings} />
          <AppearanceSection settings={settings} />
        </>
      ) : (
        <p className="muted">Loading settings…</p>
      )}
      <VaultSection />
      <AllowancesSection />
    </div>
  );
}
