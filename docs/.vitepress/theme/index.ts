// The default theme, with the components that show callfold's elements live. The elements are
// registered by the components once mounted (in the browser), so the server render never
// touches `customElements`.

import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import SessionReplay from './components/SessionReplay.vue';
import StageRows from './components/StageRows.vue';
import './style.css';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('SessionReplay', SessionReplay);
    app.component('StageRows', StageRows);
  },
} satisfies Theme;
