import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadInitialState, wireEvents } from './bridge/actions';
import { wireChatEvents } from './bridge/chat-actions';
import './styles.css';

wireEvents();
wireChatEvents();
void loadInitialState();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
