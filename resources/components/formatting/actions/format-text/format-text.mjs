// Common text transformations.
const OPERATIONS = {
  uppercase: (s) => s.toUpperCase(),
  lowercase: (s) => s.toLowerCase(),
  "title case": (s) => s.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, sep, c) => sep + c.toUpperCase()),
  trim: (s) => s.trim(),
  slugify: (s) =>
    s
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, ""),
  "collapse whitespace": (s) => s.replace(/\s+/g, " ").trim(),
};

export default {
  key: "formatting-format-text",
  name: "Format Text",
  description: "Change the case of text, trim it, collapse its whitespace or turn it into a slug.",
  version: "0.1.0",
  type: "action",
  props: {
    text: {
      type: "string",
      label: "Text",
    },
    operation: {
      type: "string",
      label: "Operation",
      options: Object.keys(OPERATIONS),
    },
  },
  async run({ $ }) {
    const transform = OPERATIONS[this.operation];
    if (!transform) throw new Error(`Unknown operation "${this.operation}"; choose one of ${Object.keys(OPERATIONS).join(", ")}`);
    const result = transform(String(this.text));
    $.export("$summary", `Applied ${this.operation}`);
    return result;
  },
};
