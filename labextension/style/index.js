import './base.css';
import './ui.css';
import './apps.css';
