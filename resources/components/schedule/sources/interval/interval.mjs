// Fires every N seconds (15 minutes unless configured).
export default {
  key: "schedule-interval",
  name: "Interval",
  description: 'Emit an event at a fixed interval. Configure the timer with {"intervalSeconds": N}.',
  version: "0.1.0",
  type: "source",
  dedupe: "unique",
  props: {
    timer: {
      type: "$.interface.timer",
      label: "Interval",
      default: {
        intervalSeconds: 15 * 60,
      },
    },
  },
  async run(event) {
    const timestamp = event?.timestamp ?? Math.floor(Date.now() / 1000);
    this.$emit(
      {
        timestamp,
        interval_seconds: event?.interval_seconds ?? null,
      },
      {
        id: timestamp,
        summary: `Interval fired at ${new Date(timestamp * 1000).toISOString()}`,
        ts: timestamp * 1000,
      },
    );
  },
};
