import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadInitialState, wireEvents } from './bridge/actions';
import { wireChatEvents } from './bridge/chat-actions';
import { wireVaultEvents } from './bridge/vault-actions';
import { wireAutosave } from './bridge/vault-autosave';
import { wireTeamEvents } from './bridge/team-actions';
import { rememberPlace, restorePlace } from './bridge/place';
import './styles.css';

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
