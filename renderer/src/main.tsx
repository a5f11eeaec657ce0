import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { startBridge } from './bridge';
import { loadInitialState, wireEvents } from './bridge/actions';
import { wireChatEvents } from './bridge/chat-actions';
import { wireVaultEvents } from './bridge/vault-actions';
import { wireAutosave } from './bridge/vault-autosave';
import { wireTeamEvents } from './bridge/team-actions';
import { rememberPlace, restorePlace } from './bridge/place';
import 'virtual:palette.css';
import './styles.css';
import './panels.css';

// The transport first: every action and event below goes through it.
startBridge();
wireEvents();
wireChatEvents();
wireVaultEvents();
wireAutosave();
wireTeamEvents();
rememberPlace();
void loadInitialState().then(restorePlace);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
