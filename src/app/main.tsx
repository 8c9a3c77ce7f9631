import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { keepCorrections, loadHistory } from './store/history-actions';
import { loadStoredRecordings } from './store/recording-actions';
import { keepSession, restoreSession } from './store/session-persistence';
import { resumePendingRequest } from './store/transcribe-actions';
import { loadVoices } from './store/voice-actions';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

keepSession();
keepCorrections();
void restoreSession();
void loadHistory();
void loadStoredRecordings();
void loadVoices();
void resumePendingRequest();
