/** The code a new source starts from: an HTTP endpoint that emits each request. */
export const NEW_SOURCE_CODE = `export default {
  name: "My webhook source",
  version: "0.1.0",
  description: "Emits every request sent to its endpoint.",
  props: {
    http: { type: "$.interface.http", customResponse: false },
  },
  async run(event) {
    console.log("received", event.method, event.path);
    this.$emit(event.body, { summary: \`\${event.method} \${event.path}\` });
  },
};
`;

/** Where the UI keeps the code it deployed (the API does not return a component's code). */
export const codeKey = (sourceId: string) => `spout.code.${sourceId}`;

export function savedCode(sourceId: string): { code: string; filename: string } | null {
  try {
    const raw = localStorage.getItem(codeKey(sourceId));
    return raw ? (JSON.parse(raw) as { code: string; filename: string }) : null;
  } catch {
    return null;
  }
}

export function saveCode(sourceId: string, code: string, filename: string): void {
  try {
    localStorage.setItem(codeKey(sourceId), JSON.stringify({ code, filename }));
  } catch {
    // storage full or disabled: the code is simply not remembered
  }
}
