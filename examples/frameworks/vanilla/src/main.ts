import 'callfold/elements/tool-timeline';
import { session } from '../../shared/session';

const timeline = document.querySelector('tool-timeline')!;
const opened = document.querySelector('output#opened')!;
timeline.source = session();
timeline.addEventListener('tool-open-path', (event) => {
  opened.textContent = event.detail.path;
});
