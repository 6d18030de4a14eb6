// The components' type for the theme's imports; their own scripts are compiled by VitePress.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';

  const component: DefineComponent;
  export default component;
}
