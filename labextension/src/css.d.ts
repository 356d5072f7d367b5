// The widgets' bundle imports the stylesheet as text (esbuild's text loader) to put it in the page itself.
declare module '*.css' {
  const text: string;
  export default text;
}
