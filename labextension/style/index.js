import './base.css';
import './ui.css';
import './union.css';
import './apps.css';
import './connected.css';
