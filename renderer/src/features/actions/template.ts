/** The code a new action starts from: a prop, a log line, an export, a summary and a return value (written for Spout). */
export const NEW_ACTION_CODE = `export default {
  key: "my_action",
  name: "My action",
  version: "0.0.1",
  type: "action",
  description: "Greets someone: returns the greeting and exports its length.",
  props: {
    name: { type: "string", label: "Name", description: "Who to greet" },
  },
  async run({ $ }) {
    const greeting = \`Hello, \${this.name}!\`;
    console.log("greeting", this.name);
    $.export("length", greeting.length);
    $.export("$summary", \`Greeted \${this.name}\`);
    return { greeting };
  },
};
`;
