import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadInitialState, wireEvents } from './bridge/actions';
import './styles.css';

wireEvents();
void loadInitialState();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
