// Vite's `?raw` suffix imports a file's text. Declared here for the one file type the demo
// imports that way, instead of pulling vite/client's globals into the whole typecheck.
declare module '*.jsonl?raw' {
  const text: string;
  export default text;
}
