import { css } from 'lit';

export const toolTimelineStyles = css`
  :host {
    display: block;
  }

  .timeline {
    display: flex;
    flex-direction: column;
    gap: 0.75em;
  }

  .assistant {
    line-height: 1.55;
  }

  .text {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  .reasoning {
    margin-bottom: 0.4em;
    color: var(--_muted);
  }

  .reasoning summary {
    cursor: pointer;
    font-size: 0.85em;
  }

  .reasoning .text {
    padding: 0.3em 0 0 1em;
    border-inline-start: 2px solid var(--_border);
    font-style: italic;
  }
`;
