// Ends the workflow early (with $.flow.exit) when a condition holds.
export default {
  key: "helper_functions-end-workflow",
  name: "End Workflow",
  description: "End the workflow here, with a reason shown in the run, unless `Only If Empty` is set and the value is present.",
  version: "0.1.0",
  type: "action",
  props: {
    reason: {
      type: "string",
      label: "Reason",
      description: "Shown as why the workflow ended.",
      optional: true,
      default: "Ended by the End Workflow step",
    },
    onlyIfEmpty: {
      type: "boolean",
      label: "Only If Empty",
      description: 'End only when Value is empty (null, "", [] or {}).',
      optional: true,
      default: false,
    },
    value: {
      type: "any",
      label: "Value",
      optional: true,
    },
  },
  async run({ $ }) {
    const v = this.value;
    const empty = v == null || v === "" || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0);
    if (!this.onlyIfEmpty || empty) {
      return $.flow.exit(this.reason ?? "Ended by the End Workflow step");
    }
    $.export("$summary", "Value present; the workflow goes on");
    return v;
  },
};
