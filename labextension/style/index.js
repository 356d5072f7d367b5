import './base.css';
import './union.css';
