import '@xyflow/react/dist/style.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/history.css';
import './styles/graph.css';
import './styles/timeline.css';
import './styles/trace.css';
import './styles/panel.css';
import './styles/messages.css';
import './styles/evals.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
