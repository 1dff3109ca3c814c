// An action with an app prop: creates an issue in the tracker and says so in its summary.
import tracker from "../polling/tracker.app.mjs";

export default {
  key: "tracker-create-issue",
  name: "Create Issue",
  version: "0.1.0",
  type: "action",
  props: {
    tracker,
    title: { type: "string", label: "Title" },
    body: { type: "string", label: "Body", optional: true },
  },
  async run({ $ }) {
    const issue = await this.tracker.createIssue($, { title: this.title, body: this.body });
    $.export("$summary", `Created issue #${issue.number}`);
    return issue;
  },
};
