// esbuild bundles the stylesheet the entry imports into app.css.
declare module '*.css';
