// How a component of the compat harness's run mode ended, and why: it completed, reached its
// first HTTP call (replay with an empty cassette stops there), was stopped by a bug of the
// registry's own (named), stopped on its own check of our placeholder input, needed what Spout
// refuses by design (starting a program: docs/security.md), or failed in Spout.

/** What became of one component. */
export type Result = 'completed' | 'reached-http' | 'registry-bug' | 'placeholder' | 'by-design' | 'spout';

export interface Outcome {
  rel: string;
  kind: 'source' | 'action';
  /** Where it ended: loading it, computing its props, deploying it, or its run. */
  stage: 'load' | 'props' | 'deploy' | 'run';
  result: Result;
  /** For a registry bug or a placeholder stop, which; for a Spout failure, the class. */
  why: string | null;
  message: string | null;
  /** How the try with every optional prop filled too ended, when it was made and did no better. */
  second?: string;
}

type Verdict = Pick<Outcome, 'result' | 'why' | 'message'>;

/** What started a source's run in the harness: a placeholder request to its endpoint, its timer's event, or run-now's `{timestamp}`. */
export type Trigger = 'request' | 'timer' | 'run-now';

/** The method of the component or its app a `this.… is not a function` message names (`this.app.listItems` → `listItems`). */
function calledName(message: string): string | null {
  const m = /(?:^|\s)this\.([\w$.]+) is not a function/.exec(message);
  return m ? ((m[1] as string).split('.').at(-1) as string) : null;
}

/** Whether `code` defines something named `name` (a method, a property, a function, a variable). */
function defines(code: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(`(?:^|[\\s,{;(*])(?:async\\s+)?\\*?\\s*${n}\\s*\\([^)]*\\)\\s*\\{|[\\s,{]${n}\\s*:|\\b(?:function\\*?|const|let|var|class)\\s+${n}\\b|\\.${n}\\s*=`, 'm').test(code);
}

/**
 * Whether a run's error is the component's own word on the connected account: every part of the
 * message (`; ` joins a list of them) is a string literal of its code, and one speaks of the
 * account or its credentials (pCloud's "Unable to retrieve your account's Location ID - try
 * reconnecting your pCloud account").
 */
function ownAccountCheck(message: string, code: string): boolean {
  const parts = message.split('; ');
  const literal = (part: string) => ['"', "'", '`'].some((q) => code.includes(`${q}${part}${q}`));
  return parts.every(literal) && parts.some((part) => /\baccount\b|credential|\$auth|api key|reconnect/i.test(part));
}

/** The class of a load failure (bundling or saving), as the load mode names them. */
export function classifyLoad(stage: 'bundle' | 'service', message: string): Verdict {
  if (stage === 'bundle') {
    if (/Could not resolve "\.\.?\//.test(message)) return { result: 'registry-bug', why: 'imports a file that is not in the tree', message };
    return { result: 'spout', why: 'build: relative imports', message };
  }
  if (/has no propDefinition|first element of propDefinition must be an app object/.test(message)) return { result: 'registry-bug', why: 'propDefinition names nothing', message };
  if (/registry .* does not have|is not in the npm registry|404 Not Found/i.test(message)) return { result: 'registry-bug', why: 'imports a package npm does not have', message };
  if (/^package "|npm|registry .* unreachable|could not be installed/.test(message)) return { result: 'spout', why: 'npm package', message };
  if (/^props\.[^:]+\.type:/.test(message)) return { result: 'spout', why: 'prop type', message };
  if (/^props\.[^:]+:/.test(message)) return { result: 'spout', why: 'prop rule', message };
  if (/^(name|version|key|type|run|hooks|dedupe|description)(\.[^:]*)?:/.test(message)) return { result: 'spout', why: 'component rule', message };
  if (/\b(ReferenceError|SyntaxError)\b|is not defined/.test(message)) return { result: 'registry-bug', why: 'its module throws when loaded', message };
  return { result: 'spout', why: 'load: module threw', message };
}

/**
 * The class of a run's end, from its error (null: it completed). `code` is the component's text,
 * to tell a missing method from an unbound one; `trigger`, what the harness ran a source with.
 */
export function classifyError(error: { name: string; message: string; stack?: string | null } | null, code: string, trigger?: Trigger): Verdict {
  if (!error) return { result: 'completed', why: null, message: null };
  const { name, message } = error;
  if (/no recording of /.test(message)) return { result: 'reached-http', why: null, message };
  if (name === 'ConfigurationError' || /ConfigurationError/.test(message)) return { result: 'placeholder', why: 'its own check refused a placeholder value (ConfigurationError)', message };
  if (/placeholder/.test(message) && /ENOENT|not found|is not valid JSON/.test(message)) return { result: 'placeholder', why: 'a placeholder value is not a file in /tmp or not JSON', message };
  if (/^Invalid URL$/.test(message)) return { result: 'placeholder', why: 'a URL it builds from placeholder credentials or props does not parse', message };
  if (/components may not start processes/.test(message)) return { result: 'by-design', why: 'starts a program, which hosts may not (docs/security.md)', message };
  if (ownAccountCheck(message, code)) return { result: 'placeholder', why: 'its own check of the connected account refused the placeholder credentials', message };
  if (name === 'ReferenceError' || / is not defined$/.test(message)) return { result: 'registry-bug', why: 'uses a name it never defines (ReferenceError)', message };
  // esbuild names a package's namespace `import_<package>[_<pinned version>]`: the package, at the version the app's package.json asks for, lacks the name the code imports.
  const imported = /\bimport_([\w$]+)\.([\w$]+) is not a (constructor|function)/.exec(message);
  if (imported) return { result: 'registry-bug', why: `imports ${imported[2]}, which its package (at the version its package.json asks for) does not export`, message };
  const called = calledName(message);
  if (called && !defines(code, called)) return { result: 'registry-bug', why: `calls ${called}(), which neither it nor its app defines`, message };
  // A method passed on by a misspelt name (`return this.app.listOrder`, the app defining
  // `listOrders`) and called later as `fn(…)`.
  if (/^[\w$]+ is not a function$/.test(message)) {
    const methods = [...code.matchAll(/^\s*(?:async\s+)?\*?\s*([\w$]+)\s*\([^)]*\)\s*\{/gm)].map((m) => m[1] as string);
    const near = (name: string) => methods.find((m) => m !== name && Math.abs(m.length - name.length) <= 2 && (m.startsWith(name) || name.startsWith(m)));
    const passed = [...code.matchAll(/this\.[\w$]+\.([\w$]+)\b(?!\s*\()/g)].map((m) => m[1] as string).find((name) => !defines(code, name) && near(name));
    if (passed) return { result: 'registry-bug', why: `passes on ${passed}, which its app does not define (it defines ${near(passed)})`, message };
  }
  // A webhook source reading its app's payload from our placeholder request (`event.body.data.x`).
  if (trigger === 'request' && name === 'TypeError' && /Cannot (read|destructure) propert/.test(message)) return { result: 'placeholder', why: "its code expects its app's payload, not the placeholder request", message };
  if (trigger === 'request' && /signature/i.test(message)) return { result: 'placeholder', why: "its code checks its app's signature, which the placeholder request lacks", message };
  if (/additionalProps\.[^:]+: /.test(message)) return { result: 'spout', why: 'a prop additionalProps returned was refused', message };
  if (/configured_props\./.test(message)) return { result: 'spout', why: 'placeholder props refused', message };
  return { result: 'spout', why: `${name}`, message };
}
