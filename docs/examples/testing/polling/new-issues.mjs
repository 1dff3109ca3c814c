// A polling source: every 15 minutes it asks the tracker for issues changed since its last run
// (kept in this.db) and emits each new one. A 429 is retried after the Retry-After it gives.
import tracker from "./tracker.app.mjs";

export default {
  key: "tracker-new-issues",
  name: "New Issues (polling)",
  version: "0.1.0",
  type: "source",
  dedupe: "unique",
  props: {
    tracker,
    db: "$.service.db",
    timer: { type: "$.interface.timer", default: { intervalSeconds: 15 * 60 } },
  },
  methods: {
    async listWithRetry(since) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.tracker.listIssues(undefined, { since });
        } catch (err) {
          if (err.response?.status !== 429 || attempt === 3) throw err;
          const seconds = Number(err.response.headers["retry-after"] ?? 1);
          console.log(`rate limited; retrying in ${seconds} s`);
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        }
      }
    },
  },
  async run() {
    const since = this.db.get("since") ?? "2025-12-31T00:00:00Z";
    const { issues } = await this.listWithRetry(since);
    for (const issue of issues) {
      this.$emit(issue, { id: issue.id, summary: `#${issue.number} ${issue.title}`, ts: Date.parse(issue.updated_at) });
    }
    this.db.set("since", new Date().toISOString());
  },
};
