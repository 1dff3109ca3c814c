// `process.binding`, which Node's permission model refuses whole. Old packages still call it as
// they load, most for `process.binding('natives')`: the names of Node's built-in modules, to tell
// `require("fs")` from a package (precinct, which netlify's client imports). On Pipedream that
// works; here that one name is answered with the built-in modules' names (each with a stand-in
// text, not its source), and every other binding is refused as before.
import { builtinModules } from 'node:module';

/** What `process.binding('natives')` answers: every built-in module's name, mapped to a stand-in for its source. */
function natives(): Record<string, string> {
  return Object.fromEntries(builtinModules.map((name) => [name, `// ${name}: a built-in module of Node`]));
}

/** Answers `process.binding('natives')`; other names go to Node's own (which refuses them under the permission model). */
export function installLegacyBindings(): void {
  // Deprecated, and absent from Node's types.
  const p = process as unknown as { binding: (name: string) => unknown };
  const original = p.binding.bind(process);
  let answer: Record<string, string> | null = null;
  p.binding = (name: string) => (name === 'natives' ? (answer ??= natives()) : original(name));
}
