import './base.css';
import './ui.css';
import './union.css';
import './agents.css';
import './apps.css';
import './connected.css';
