// Writes one record of a data store, optionally expiring.
export default {
  key: "data_stores-add-update-record",
  name: "Add or Update Record",
  description: "Store a value under a key in a data store, optionally expiring after some seconds.",
  version: "0.1.0",
  type: "action",
  props: {
    dataStore: {
      type: "data_store",
      label: "Data Store",
    },
    recordKey: {
      type: "string",
      label: "Key",
    },
    value: {
      type: "any",
      label: "Value",
      description: "Any JSON value.",
    },
    ttl: {
      type: "integer",
      label: "Expire After (seconds)",
      optional: true,
      min: 1,
    },
  },
  async run({ $ }) {
    const existed = await this.dataStore.has(this.recordKey);
    await this.dataStore.set(
      this.recordKey,
      this.value,
      this.ttl
        ? {
            ttl: this.ttl,
          }
        : undefined,
    );
    $.export("$summary", `${existed ? "Updated" : "Added"} record \`${this.recordKey}\``);
    return {
      key: this.recordKey,
      value: this.value,
      updated: existed,
    };
  },
};
