// Reads one record of a data store.
export default {
  key: "data_stores-get-record",
  name: "Get Record",
  description: "Return the value stored under a key in a data store (or a default when there is none).",
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
      description: "The record's key.",
    },
    defaultValue: {
      type: "any",
      label: "Default Value",
      description: "Returned when the key has no record.",
      optional: true,
    },
  },
  async run({ $ }) {
    const found = await this.dataStore.has(this.recordKey);
    const value = found ? await this.dataStore.get(this.recordKey) : this.defaultValue;
    $.export("$summary", found ? `Found record \`${this.recordKey}\`` : `No record \`${this.recordKey}\``);
    return value;
  },
};
