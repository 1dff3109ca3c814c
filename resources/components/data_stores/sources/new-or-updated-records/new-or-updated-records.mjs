// Polls a data store and emits records that are new or changed since the last look.
function fingerprint(value) {
  const text = JSON.stringify(value) ?? "undefined";
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return `${text.length}:${hash}`;
}

export default {
  key: "data_stores-new-or-updated-records",
  name: "New or Updated Records",
  description: "Emit an event for each record added to or changed in a data store, checked on a timer (and on run now).",
  version: "0.1.0",
  type: "source",
  props: {
    dataStore: {
      type: "data_store",
      label: "Data Store",
      description: "The store to watch.",
    },
    db: "$.service.db",
    timer: {
      type: "$.interface.timer",
      label: "Check Every",
      default: {
        intervalSeconds: 60,
      },
    },
    emitExisting: {
      type: "boolean",
      label: "Emit Existing Records",
      description: "On deploy, emit the records already in the store (otherwise only later changes are emitted).",
      optional: true,
      default: false,
    },
  },
  hooks: {
    async deploy() {
      if (!this.emitExisting) this.db.set("seen", await this.snapshot());
    },
  },
  methods: {
    async snapshot() {
      const seen = {};
      for await (const [key, value] of this.dataStore) seen[key] = fingerprint(value);
      return seen;
    },
  },
  async run() {
    const before = this.db.get("seen") ?? {};
    const now = {};
    for await (const [key, value] of this.dataStore) {
      const print = fingerprint(value);
      now[key] = print;
      if (before[key] === print) continue;
      this.$emit(
        {
          key,
          value,
          change: key in before ? "updated" : "added",
        },
        {
          summary: `${key in before ? "Updated" : "New"} record ${key}`,
          ts: Date.now(),
        },
      );
    }
    this.db.set("seen", now);
  },
};
