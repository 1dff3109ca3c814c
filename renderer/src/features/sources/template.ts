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
