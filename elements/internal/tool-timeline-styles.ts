import { css } from 'lit';

export const toolTimelineStyles = css`
  :host {
    display: block;
  }

  .timeline,
  .section,
  .chunk {
    display: flex;
    flex-direction: column;
    gap: 0.75em;
  }

  /* The browser skips style, layout and paint of chunks off screen (they keep their last
     size, or the estimate until they first render). Their paint containment would clip a
     focus ring drawn just outside a group: the clip margin leaves room for it. */
  .chunk {
    content-visibility: auto;
    overflow-clip-margin: 4px;
  }

  .chunk[data-waiting] {
    content-visibility: visible;
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

  .turn {
    display: flex;
    flex-direction: column;
    gap: 0.75em;
  }

  .turn .rule {
    width: 100%;
    margin: 0.25em 0 0;
    border: 0;
    border-top: 1px solid var(--_border);
  }

  .timeline > .section:first-child > .chunk:first-child > .turn:first-child .rule {
    display: none;
  }

  .turn .prompt {
    align-self: flex-end;
    max-width: min(100%, 42em);
    margin: 0;
    padding: 0.5em 0.75em;
    border-radius: var(--_radius);
    background: var(--_raised);
    font-size: 1em;
    font-weight: 600;
    line-height: 1.5;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;
