import type { ProbeProgress } from './run-probe.js';

/** `▕██████░░░░░░▏ 120/320 · 4 running · 3 retries · 1 error`, the bar `width` cells wide. */
export function formatProgress(progress: ProbeProgress, width = 24): string {
  const { total, done, running, retries, errors } = progress;
  const filled = total === 0 ? width : Math.floor((done / total) * width);
  const bar = `▕${'█'.repeat(filled)}${'░'.repeat(width - filled)}▏`;
  const parts = [`${bar} ${done}/${total}`];
  if (running > 0) parts.push(`${running} running`);
  if (retries > 0) parts.push(`${retries} ${retries === 1 ? 'retry' : 'retries'}`);
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  return parts.join(' · ');
}
