import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadInitialState, wireEvents } from './bridge/actions';
import { wireChatEvents } from './bridge/chat-actions';
import { wireVaultEvents } from './bridge/vault-actions';
import { wireAutosave } from './bridge/vault-autosave';
import { wireTeamEvents } from './bridge/team-actions';
import './styles.css';

wireEvents();
wireChatEvents();
wireVaultEvents();
wireAutosave();
wireTeamEvents();
void loadInitialState();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
