import { css } from 'lit';

export const toolGroupStyles = css`
  :host {
    display: block;
  }

  .group {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
  }

  .header {
    display: flex;
    align-items: center;
    gap: 0.5em;
    width: 100%;
    min-height: 2.25em;
    margin: 0;
    padding: 0.3em 0.6em;
    border: 0;
    border-radius: var(--_radius);
    background: none;
    text-align: start;
    cursor: pointer;
  }

  .header:hover {
    background: var(--_raised);
  }

  .chevron {
    flex: none;
    width: 12px;
    height: 12px;
    color: var(--_muted);
    transition: transform 0.15s ease;
  }

  [aria-expanded='true'] .chevron {
    transform: rotate(90deg);
  }

  .counts {
    display: inline-flex;
    gap: 0.15em;
    flex: none;
    color: var(--_muted);
  }

  .summary {
    flex: none;
    font-weight: 600;
  }

  .detail {
    flex: 1 1 auto;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    color: var(--_muted);
  }

  .status {
    flex: none;
    font-size: 0.85em;
    color: var(--_muted);
  }

  .status.failed {
    color: var(--_error);
    font-weight: 600;
  }

  .activity {
    flex: none;
    width: 0.55em;
    height: 0.55em;
    border-radius: 50%;
    background: var(--_accent);
    animation: pulse 1.2s ease-in-out infinite;
  }

  @keyframes pulse {
    50% {
      opacity: 0.3;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .activity {
      animation: none;
    }
    .chevron {
      transition: none;
    }
  }

  .tools {
    border-top: 1px solid var(--_border);
    padding: 0.2em 0;
  }

  .tools[hidden] {
    display: none;
  }
`;
