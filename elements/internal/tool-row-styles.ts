import { css } from 'lit';

export const toolRowStyles = css`
  :host {
    display: block;
    line-height: 1.45;
  }

  .header {
    display: flex;
    align-items: center;
    gap: 0.5em;
    min-height: 2em;
    padding: 0.2em 0.5em;
    min-width: 0;
  }

  .toggle {
    display: flex;
    align-items: center;
    gap: 0.5em;
    flex: 0 1 auto;
    min-width: 0;
    margin: 0;
    padding: 0.1em 0.2em;
    border: 0;
    border-radius: var(--_radius);
    background: none;
    text-align: start;
  }

  /* Without a summary to ellipsize, the heading keeps its title and name whole; the path or
     link beside it gives way instead. */
  .toggle:not(:has(.summary)) {
    flex-shrink: 0;
  }

  button.toggle {
    cursor: pointer;
  }

  button.toggle:hover {
    background: var(--_raised);
  }

  .chevron,
  .chevron-space {
    flex: none;
    width: 12px;
    height: 12px;
    color: var(--_muted);
  }

  .chevron {
    transition: transform 0.15s ease;
  }

  [aria-expanded='true'] .chevron {
    transform: rotate(90deg);
  }

  .icon {
    flex: none;
    color: var(--_muted);
  }

  .title {
    flex: none;
    font-weight: 600;
  }

  .name {
    flex: none;
    color: var(--_muted);
    font-family: var(--_mono);
    font-size: 0.85em;
  }

  .summary {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    color: var(--_muted);
  }

  .path,
  .link {
    flex: 0 1 auto;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-family: var(--_mono);
    font-size: 0.9em;
    color: var(--_accent);
  }

  .more-paths {
    flex: 0 1 auto;
    min-width: 3em;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-family: var(--_mono);
    font-size: 0.9em;
    color: var(--_muted);
  }

  .path {
    margin: 0;
    padding: 0.1em 0.2em;
    border: 0;
    border-radius: var(--_radius);
    background: none;
    cursor: pointer;
    text-align: start;
  }

  .path:hover,
  .link:hover {
    text-decoration: underline;
  }

  .meta {
    display: flex;
    align-items: center;
    gap: 0.5em;
    margin-inline-start: auto;
    flex: none;
    font-size: 0.85em;
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }

  .exit-code.failed {
    color: var(--_error);
    font-weight: 600;
  }

  .stage {
    display: inline-flex;
    align-items: center;
    gap: 0.35em;
  }

  .stage::before {
    content: '';
    width: 0.55em;
    height: 0.55em;
    border-radius: 50%;
    background: currentColor;
  }

  :host([stage='preparing']) .stage::before,
  :host([stage='start']) .stage::before {
    animation: pulse 1.2s ease-in-out infinite;
  }

  :host([stage='start']) .stage {
    color: var(--_accent);
  }

  :host([stage='result']) .stage {
    color: var(--_success);
  }

  :host([error]) .stage,
  :host([error]) .icon {
    color: var(--_error);
  }

  .executor {
    padding: 0 0.45em;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 0.9em;
    line-height: 1.5;
  }

  :host([incomplete]) .stage,
  :host([incomplete]) .icon {
    color: var(--_error);
  }

  :host([approval='requested']) .stage {
    color: var(--_accent);
  }

  :host([approval='denied']) .stage {
    color: var(--_muted);
  }

  :host([incomplete]) .stage::before,
  :host([approval='requested']) .stage::before,
  :host([approval='denied']) .stage::before {
    animation: none;
  }

  :host([approval='denied']) .stage::before {
    background: none;
    border: 1px solid currentColor;
    box-sizing: border-box;
  }

  .notice,
  .approval {
    margin: 0;
    padding: 0.1em 0.5em 0.4em calc(0.7em + 12px + 16px + 1em);
    font-size: 0.9em;
  }

  .notice.cut {
    color: var(--_error);
  }

  .notice.denied {
    color: var(--_muted);
  }

  .approval {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em;
  }

  .approval button {
    padding: 0.15em 0.8em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_raised);
    cursor: pointer;
  }

  .approval .approve {
    border-color: var(--_accent);
    background: var(--_accent);
    color: var(--_surface);
    font-weight: 600;
  }

  .approval [aria-disabled='true'] {
    opacity: 0.55;
    cursor: default;
  }

  @keyframes pulse {
    50% {
      opacity: 0.3;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .stage::before {
      animation: none !important;
    }
    .chevron {
      transition: none;
    }
  }

  .body {
    display: grid;
    gap: 0.6em;
    padding: 0.2em 0.5em 0.6em calc(0.7em + 12px + 16px + 1em);
    min-width: 0;
  }

  .body[hidden] {
    display: none;
  }

  .label {
    margin-bottom: 0.2em;
    font-size: 0.75em;
    letter-spacing: 0.04em;
    text-transform: uppercase;
    color: var(--_muted);
  }

  pre {
    margin: 0;
    padding: 0.5em 0.65em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_code);
    font-family: var(--_mono);
    font-size: 0.85em;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  .command pre::before {
    content: '$ ';
    color: var(--_muted);
  }

  .removed pre {
    border-inline-start: 3px solid var(--_error);
  }

  .added pre {
    border-inline-start: 3px solid var(--_success);
  }

  .error pre {
    border-color: var(--_error);
    color: var(--_error);
  }

  .empty {
    color: var(--_muted);
    font-style: italic;
  }

  .more {
    margin: 0.2em 0 0;
    padding: 0.1em 0.2em;
    border: 0;
    border-radius: var(--_radius);
    background: none;
    color: var(--_accent);
    font-size: 0.85em;
    cursor: pointer;
  }

  .fields {
    display: grid;
    grid-template-columns: max-content minmax(0, 1fr);
    gap: 0.2em 0.9em;
    margin: 0;
    font-family: var(--_mono);
    font-size: 0.85em;
  }

  .fields > div {
    display: contents;
  }

  .fields dt {
    color: var(--_muted);
  }

  .fields dd {
    margin: 0;
    overflow-wrap: anywhere;
  }

  .fields a {
    color: var(--_accent);
  }

  .todos {
    margin: 0;
    padding: 0;
    list-style: none;
  }

  .todos li {
    display: flex;
    gap: 0.5em;
  }

  .todos .mark {
    flex: none;
    width: 1.2em;
    color: var(--_muted);
    text-align: center;
  }

  .todos [data-status='completed'] .text {
    color: var(--_muted);
    text-decoration: line-through;
  }

  .todos [data-status='in_progress'] .text {
    font-weight: 600;
  }
`;
