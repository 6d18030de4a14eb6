// Vite's import suffixes, declared here for the file types the demo imports that way,
// instead of pulling vite/client's globals into the whole typecheck. `?raw` gives the
// file's text; `?url` its URL (served by the dev server, emitted as an asset by the build).
declare module '*.jsonl?raw' {
  const text: string;
  export default text;
}

declare module '*.jsonl?url' {
  const url: string;
  export default url;
}
