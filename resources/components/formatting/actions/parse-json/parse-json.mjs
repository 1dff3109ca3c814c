// Parses JSON text, optionally returning one field of it.
export default {
  key: "formatting-parse-json",
  name: "Parse JSON",
  description: "Parse JSON text into data, optionally picking a field by a dotted path such as `items.0.id`.",
  version: "0.1.0",
  type: "action",
  props: {
    input: {
      type: "string",
      label: "JSON Text",
    },
    path: {
      type: "string",
      label: "Path",
      description: "Dotted path of the field to return; the whole value when empty.",
      optional: true,
    },
  },
  async run({ $ }) {
    let value;
    try {
      value = JSON.parse(this.input);
    } catch (err) {
      throw new Error(`The input is not valid JSON: ${err.message}`);
    }
    if (this.path) {
      for (const part of this.path.split(".")) {
        if (value == null || typeof value !== "object") {
          throw new Error(`Path "${this.path}": nothing at "${part}"`);
        }
        value = value[part];
      }
    }
    $.export("$summary", this.path ? `Parsed JSON and picked ${this.path}` : "Parsed JSON");
    return value;
  },
};
