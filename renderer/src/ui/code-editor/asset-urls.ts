// Where this build's code editor files are: their names carry a hash of their content (so the
// service lets browsers keep them for good), and index.html lists them (scripts/build.js).

/** The editor bundle, its stylesheet and its two web workers. */
export interface EditorAssets {
  editor: string;
  editorCss: string;
  editorWorker: string;
  tsWorker: string;
}

/** The URLs index.html lists; the unhashed names when it lists none (a page served without a build step). */
export function editorAssets(): EditorAssets {
  const listed = document.getElementById('spout-assets')?.textContent;
  if (listed) return JSON.parse(listed) as EditorAssets;
  return { editor: '/assets/editor.js', editorCss: '/assets/editor.css', editorWorker: '/assets/editor.worker.js', tsWorker: '/assets/ts.worker.js' };
}
