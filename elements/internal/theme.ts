import { css } from 'lit';

/**
 * The theme every callfold element starts from. Each `--callfold-*` custom property an
 * embedder sets wins in both colour schemes; unset ones fall back to a light palette, or to a
 * dark one under `prefers-color-scheme: dark`. Components read only the private `--_*`
 * properties, so a fallback is written once, here.
 */
export const theme = css`
  :host {
    --_font: var(
      --callfold-font-family,
      system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      sans-serif
    );
    --_mono: var(
      --callfold-mono-font-family,
      ui-monospace,
      'SF Mono',
      'Cascadia Code',
      Menlo,
      Consolas,
      monospace
    );
    --_size: var(--callfold-font-size, 0.875rem);
    --_radius: var(--callfold-radius, 6px);
    --_text: var(--callfold-color-text, #1f2328);
    --_muted: var(--callfold-color-muted, #59636e);
    --_surface: var(--callfold-color-surface, #ffffff);
    --_raised: var(--callfold-color-surface-raised, #f6f8fa);
    --_border: var(--callfold-color-border, #d1d9e0);
    --_accent: var(--callfold-color-accent, #0969da);
    --_error: var(--callfold-color-error, #cf222e);
    --_success: var(--callfold-color-success, #1a7f37);
    --_code: var(--callfold-color-code-background, #f6f8fa);
    --_focus: var(--callfold-color-focus, #0969da);

    font-family: var(--_font);
    font-size: var(--_size);
    color: var(--_text);
  }

  @media (prefers-color-scheme: dark) {
    :host {
      --_text: var(--callfold-color-text, #e6edf3);
      --_muted: var(--callfold-color-muted, #9198a1);
      --_surface: var(--callfold-color-surface, #0d1117);
      --_raised: var(--callfold-color-surface-raised, #151b23);
      --_border: var(--callfold-color-border, #3d444d);
      --_accent: var(--callfold-color-accent, #4493f8);
      --_error: var(--callfold-color-error, #f85149);
      --_success: var(--callfold-color-success, #3fb950);
      --_code: var(--callfold-color-code-background, #151b23);
      --_focus: var(--callfold-color-focus, #4493f8);
    }
  }

  :host([hidden]) {
    display: none;
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }

  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 1px;
  }

  button {
    font: inherit;
    color: inherit;
  }
`;
