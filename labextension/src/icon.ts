import { LabIcon } from '@jupyterlab/ui-components';

const svgstr = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">
  <g class="jp-icon3" fill="#616161">
    <path d="M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4z" opacity="0.9"/>
    <circle cx="16.5" cy="16.5" r="3.5"/>
  </g>
</svg>`;

export const mcpIcon = new LabIcon({ name: 'jupyter-mcp:tools', svgstr });
